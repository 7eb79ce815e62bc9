// @vitest-environment jsdom
import assert from 'node:assert/strict';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, it, vi } from 'vitest';
import { resetToasts } from '../../components/toast/toast-store';
import SubscribePage from '../../pages/SubscribePage';
import SubscriptionCheckoutPage from '../../pages/SubscriptionCheckoutPage';
import { currentLocation, customer, fakeApi, json, renderPage } from '../../test/fake-api';

const left = vi.hoisted(() => [] as string[]);
vi.mock('../../lib/navigate-away', () => ({ navigateAway: (url: string) => left.push(url) }));

const price = (price_id: string, amount: number, display_price: string, savings: string | null = null) => ({
  price_id,
  amount,
  currency: 'usd',
  display_price,
  savings,
});
const products = {
  subscriptions: [
    { id: 'free', name: 'Free', description: '', features: [], tokens_per_month: 200, pricing: {} },
    {
      id: 'lite',
      name: 'Lite',
      description: '',
      features: [],
      tokens_per_month: 1700,
      pricing: { monthly: price('price_lm', 2400, '$24'), yearly: price('price_ly', 23040, '$230.40', '$57.60') },
    },
    {
      id: 'studio',
      name: 'Studio',
      description: '',
      features: [],
      tokens_per_month: 4000,
      pricing: { monthly: price('price_sm', 4000, '$40'), yearly: price('price_sy', 38400, '$384', '$96') },
    },
  ],
  token_packs: [],
};

const routes = (over: Parameters<typeof fakeApi>[0] = {}) => ({
  'GET /api/payments/products': json(200, products),
  'GET /api/stripe/config': json(200, { publishableKey: 'pk_local_123' }),
  'GET /api/auth/me': json(200, customer()),
  ...over,
});

beforeEach(() => {
  localStorage.clear();
  resetToasts();
  left.length = 0;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('/subscribe', () => {
  it('shows the plans monthly and yearly with an order summary, and subscribes to the chosen one', async () => {
    localStorage.setItem('auth_token', 'customer-token');
    const api = fakeApi(
      routes({ 'POST /api/checkout/session': json(200, { url: 'https://checkout.example/s/1', message: 'ok' }) }),
    );
    renderPage(<SubscribePage />, { path: '/subscribe', at: '/subscribe?promo=WELCOME' });
    const lite = await screen.findByRole('radio', { name: /Lite/ });
    within(lite).getByText('$24');
    within(lite).getByText('1,700 tokens a month');
    const studio = screen.getByRole('radio', { name: /Studio/ });
    within(studio).getByText('$40');
    within(studio).getByText('4,000 tokens a month');
    assert.equal(screen.queryByRole('radio', { name: /Free/ }), null);
    await userEvent.click(screen.getByLabelText('Yearly'));
    within(lite).getByText('$230.40');
    within(lite).getByText('20,400 tokens a year');
    within(studio).getByText('$384');
    within(studio).getByText('48,000 tokens a year');
    within(studio).getByText('Save $96');
    const summary = screen.getByRole('complementary', { name: 'Order Summary' });
    within(summary).getByText('Yearly');
    within(summary).getByText('48,000');
    await userEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    await waitFor(() => assert.deepEqual(left, ['https://checkout.example/s/1']));
    assert.deepEqual(JSON.parse(api.calls('POST', '/api/checkout/session')[0]!.body), {
      type: 'subscription',
      plan: 'studio_yearly',
      promo_code: 'WELCOME',
    });
  });

  it('signs a visitor in on the page itself', async () => {
    fakeApi(
      routes({
        'POST /api/auth/login': json(200, { access_token: 'fresh', token_type: 'bearer', user: customer() }),
      }),
    );
    renderPage(<SubscribePage />, { path: '/subscribe' });
    const form = await screen.findByRole('form', { name: 'Sign in to subscribe' });
    await userEvent.click(within(form).getByRole('button', { name: 'Create a new account' }));
    screen.getByRole('form', { name: 'Create an account to subscribe' });
    await userEvent.click(screen.getByRole('button', { name: 'I already have an account' }));
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'correct horse');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await screen.findByRole('button', { name: 'Subscribe' });
    assert.equal(localStorage.getItem('auth_token'), 'fresh');
  });

  it("says 'Payment System Not Configured' without a publishable key", async () => {
    fakeApi(routes({ 'GET /api/stripe/config': json(200, { publishableKey: '' }) }));
    renderPage(<SubscribePage />, { path: '/subscribe' });
    await screen.findByRole('heading', { name: 'Payment System Not Configured' });
  });

  it("says 'Payment System Unavailable' when the payment configuration cannot be read", async () => {
    fakeApi(routes({ 'GET /api/stripe/config': json(500, { detail: 'boom' }) }));
    renderPage(<SubscribePage />, { path: '/subscribe' });
    await screen.findByRole('heading', { name: 'Payment System Unavailable' });
  });

  it("says 'Setup Failed' when the checkout is refused", async () => {
    localStorage.setItem('auth_token', 'customer-token');
    fakeApi(routes({ 'POST /api/checkout/session': json(400, { detail: 'Invalid Plan' }) }));
    renderPage(<SubscribePage />, { path: '/subscribe' });
    await userEvent.click(await screen.findByRole('button', { name: 'Subscribe' }));
    await screen.findByText('Setup Failed');
    assert.deepEqual(left, []);
  });
});

describe('/subscription-checkout', () => {
  it("rejects an unknown plan with 'Invalid Plan' and returns to /pricing", async () => {
    const api = fakeApi(routes());
    renderPage(<SubscriptionCheckoutPage />, {
      path: '/subscription-checkout',
      at: '/subscription-checkout?plan=gold_weekly',
    });
    await screen.findByText('Invalid Plan');
    await waitFor(() => assert.equal(currentLocation(), '/pricing'));
    assert.equal(api.calls('POST', '/api/checkout/session').length, 0);
  });

  it('starts the checkout by itself with the plan and the promo code', async () => {
    const api = fakeApi(routes({ 'POST /api/checkout/session': json(200, { url: 'https://checkout.example/s/2' }) }));
    renderPage(<SubscriptionCheckoutPage />, {
      path: '/subscription-checkout',
      at: '/subscription-checkout?plan=lite_monthly&promo=SPRING',
    });
    await waitFor(() => assert.deepEqual(left, ['https://checkout.example/s/2']));
    assert.deepEqual(JSON.parse(api.calls('POST', '/api/checkout/session')[0]!.body), {
      type: 'subscription',
      plan: 'lite_monthly',
      promo_code: 'SPRING',
    });
  });

  it("shows 'Payment System Unavailable' for a 501 and 'Setup Failed' otherwise, with Try Again", async () => {
    let status = 501;
    const api = fakeApi(
      routes({ 'POST /api/checkout/session': () => json(status, { detail: 'Payments are not configured' }) }),
    );
    renderPage(<SubscriptionCheckoutPage />, {
      path: '/subscription-checkout',
      at: '/subscription-checkout?plan=studio_yearly',
    });
    await screen.findByRole('heading', { name: 'Payment System Unavailable' });
    status = 400;
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    await screen.findByRole('heading', { name: 'Setup Failed' });
    assert.equal(api.calls('POST', '/api/checkout/session').length, 2);
  });
});
