// @vitest-environment jsdom
import assert from 'node:assert/strict';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, it, vi } from 'vitest';
import { resetToasts } from '../../components/toast/toast-store';
import AccountPage from '../../pages/AccountPage';
import { currentLocation, customer, fakeApi, json, renderPage } from '../../test/fake-api';
import { formatPeriodEnd, parsePlanKey, subscriptionView } from './subscription';
import type { SubscriptionStatus } from '../../api/schema';

const left = vi.hoisted(() => [] as string[]);
vi.mock('../../lib/navigate-away', () => ({ navigateAway: (url: string) => left.push(url) }));

const END = Date.parse('2026-12-23T00:00:00Z') / 1000;
const active: SubscriptionStatus = {
  hasSubscription: true,
  subscriptionPlan: 'studio',
  status: 'active',
  cancelAtPeriodEnd: false,
  currentPeriodEnd: END,
  billingPeriod: 'monthly',
};

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('auth_token', 'customer-token');
  resetToasts();
  left.length = 0;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const show = () => renderPage(<AccountPage />, { path: '/account' });
const me = json(200, customer({ subscriptionPlan: 'studio', subscriptionStatus: 'active', tokenBalance: 4200 }));

describe('subscription rules', () => {
  it('reads plan keys of the shape plan_period', () => {
    assert.deepEqual(parsePlanKey('studio_monthly'), { plan: 'studio', period: 'monthly' });
    assert.deepEqual(parsePlanKey('lite_yearly'), { plan: 'lite', period: 'yearly' });
    for (const bad of ['studio', 'gold_monthly', 'studio_weekly', '', null, 'studio_monthly_x'])
      assert.equal(parsePlanKey(bad), null);
  });
  it("shows 'Cancelling' and 'Ends On' once cancelled at period end, N/A for an unknown date", () => {
    assert.equal(formatPeriodEnd(END), 'December 23, 2026');
    assert.deepEqual([formatPeriodEnd(null), formatPeriodEnd(0), formatPeriodEnd(undefined)], ['N/A', 'N/A', 'N/A']);
    const cancelling = subscriptionView({ ...active, cancelAtPeriodEnd: true });
    assert.deepEqual(
      [cancelling.badgeLabel, cancelling.dateLabel, cancelling.canCancel],
      ['Cancelling', 'Ends On', false],
    );
    assert.equal(subscriptionView(active).canCancel, true);
    assert.equal(subscriptionView({ ...active, status: 'past_due' }).canCancel, false);
    assert.equal(subscriptionView({ ...active, status: 'canceled' }).badgeLabel, 'Canceled');
  });
});

describe('/account', () => {
  it('shows the e-mail, name, balance and the active plan with its next billing date', async () => {
    fakeApi({ 'GET /api/auth/me': me, 'GET /api/subscription/status': json(200, active) });
    show();
    await screen.findByText('4,200');
    screen.getByText('ada@example.com');
    screen.getByText('Ada Lovelace');
    const card = screen.getByRole('article', { name: 'Subscription' });
    await within(card).findByText('Studio Plan');
    within(card).getByText('Active');
    within(card).getByText('Next Billing Date');
    within(card).getByText('December 23, 2026');
    within(card).getByRole('button', { name: 'Manage Billing' });
    within(card).getByRole('button', { name: 'Cancel Subscription' });
    for (const [name, href] of [
      ['View Pricing', '/pricing'],
      ['Dashboard', '/dashboard'],
      ['Buy Token Packs', '/checkout'],
    ])
      assert.equal(screen.getByRole('link', { name }).getAttribute('href'), href);
  });

  it("cancels at period end and then shows 'Cancelling' with the end date, without Cancel", async () => {
    let status = active;
    const api = fakeApi({
      'GET /api/auth/me': me,
      'GET /api/subscription/status': () => json(200, status),
      'POST /api/subscription/cancel': () => {
        status = { ...active, cancelAtPeriodEnd: true };
        return json(200, { message: 'Your subscription ends on December 23, 2026' });
      },
    });
    show();
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel Subscription' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Cancel Subscription?' });
    within(dialog).getByText(/December 23, 2026/);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel Subscription' }));
    await screen.findByText('Cancelling');
    const card = screen.getByRole('article', { name: 'Subscription' });
    within(card).getByText('Ends On');
    within(card).getByText('December 23, 2026');
    assert.equal(within(card).queryByRole('button', { name: 'Cancel Subscription' }), null);
    assert.equal(api.calls('POST', '/api/subscription/cancel').length, 1);
  });

  it("says 'Failed to Cancel' when the cancellation is refused", async () => {
    fakeApi({
      'GET /api/auth/me': me,
      'GET /api/subscription/status': json(200, active),
      'POST /api/subscription/cancel': json(409, { detail: 'The subscription is already cancelled' }),
    });
    show();
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel Subscription' }));
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel Subscription' }));
    await screen.findByText('Failed to Cancel');
    screen.getByText('The subscription is already cancelled');
  });

  it("opens the billing portal, or says 'Failed to Open Billing Portal'", async () => {
    let ok = true;
    fakeApi({
      'GET /api/auth/me': me,
      'GET /api/subscription/status': json(200, active),
      'POST /api/create-billing-portal': () =>
        ok ? json(200, { url: 'https://billing.example/p/1' }) : json(400, { detail: 'No billing account yet' }),
    });
    show();
    await userEvent.click(await screen.findByRole('button', { name: 'Manage Billing' }));
    await waitFor(() => assert.deepEqual(left, ['https://billing.example/p/1']));
    ok = false;
    await userEvent.click(screen.getByRole('button', { name: 'Manage Billing' }));
    await screen.findByText('Failed to Open Billing Portal');
    screen.getByText('No billing account yet');
  });

  it('offers View Plans without a subscription, and shows N/A for an unknown date', async () => {
    fakeApi({
      'GET /api/auth/me': json(200, customer()),
      'GET /api/subscription/status': json(200, { hasSubscription: false }),
    });
    show();
    assert.equal((await screen.findByRole('link', { name: 'View Plans' })).getAttribute('href'), '/subscribe');
    assert.equal(screen.queryByRole('button', { name: 'Cancel Subscription' }), null);
    cleanup();
    fakeApi({
      'GET /api/auth/me': me,
      'GET /api/subscription/status': json(200, { ...active, status: 'past_due', currentPeriodEnd: null }),
    });
    show();
    await screen.findByText('Past Due');
    screen.getByText('N/A');
    assert.equal(screen.queryByRole('button', { name: 'Cancel Subscription' }), null);
  });

  it("sends a failed authentication check to /auth?redirect=account with 'Authentication Required'", async () => {
    fakeApi({ 'GET /api/auth/me': me, 'GET /api/subscription/status': json(401, { detail: 'Not authenticated' }) });
    show();
    await screen.findByText('Authentication Required');
    await waitFor(() => assert.equal(currentLocation(), '/auth?redirect=account'));
  });
});
