// The operator's journey in real headless Chromium against the built app and a started gateway
// with real identity, ledger and analytics (Postgres, Kafka, Redis): sign in, find users by plan
// and by e-mail, add credits, delete a user, walk the chart through its periods; axe-core on
// /admin and /account; screenshots at 1440 px under reports/web-operator/.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { events, eventTypes, topics } from '@flatlay/proto';
import { outboxMessage } from '@flatlay/platform';
import { startStack, type Stack, type TokenBody } from '../../gateway/test/support/stack.js';
import { waitFor } from '../../services/platform/test/support.js';
import { buildWebApp, launchBrowser, newDesktopPage, screenshot, seriousViolations, serveApp } from './browser.js';

type Person = Awaited<ReturnType<Stack['newUser']>>;
interface Row {
  email: string;
  token_balance: number;
  subscription_plan: string;
}

describe('the operator in the browser', { timeout: 420_000 }, () => {
  let stack: Stack;
  let app: Awaited<ReturnType<typeof serveApp>>;
  let browser: Browser;
  let page: Page;
  let adminToken: string;
  let subscriber: Person;
  let plain: Person;
  let leaving: Person;

  const listed = async (query: string) => {
    const res = await stack.request<{ users: Row[] }>('GET', `/admin/users?q=${encodeURIComponent(query)}`, {
      token: adminToken,
    });
    return res.body.users;
  };
  const projected = (email: string, check: (r: Row) => boolean = () => true) =>
    waitFor(
      async () => (await listed(`email:${email}`)).some(check),
      `analytics projects ${email}`,
      // Under a loaded machine the projection can lag well behind; a ceiling, not a target.
      240_000,
    );

  beforeAll(async () => {
    buildWebApp();
    // Billing too: /account asks for the subscription, and a missing service would be a 503, on
    // which the web client ends the session (a real outage only).
    stack = await startStack('web-operator-e2e', undefined, { analytics: true, billing: {} });
    const login = await stack.request<TokenBody>('POST', '/admin/login', {
      form: { username: stack.admin.email, password: stack.admin.password },
    });
    adminToken = login.body.access_token;
    [subscriber, plain, leaving] = [
      await stack.newUser('e2e-studio'),
      await stack.newUser('e2e-credits'),
      await stack.newUser('e2e-leaving'),
    ];
    // Billing's event for a studio subscription: identity and analytics follow it.
    const now = new Date();
    const m = outboxMessage(
      topics.billingSubscription,
      eventTypes.SubscriptionActivated,
      events.SubscriptionActivated,
      {
        subscriptionId: `sub_${randomUUID()}`,
        userId: subscriber.id,
        plan: 'studio',
        billingPeriod: 'monthly',
        periodStart: now,
        periodEnd: new Date(now.getTime() + 30 * 86_400_000),
      },
      { aggregateId: subscriber.id, occurredAt: now },
    );
    await stack.bus.publish([{ topic: m.topic, key: m.key, value: Buffer.from(m.envelope), headers: {} }]);
    await Promise.all([
      projected(subscriber.email, (r) => r.subscription_plan === 'studio'),
      // Presence only: the balance in the list follows the ledger's topic, which analytics may
      // still be catching up on; the credits step reads the ledger's own answer instead.
      projected(plain.email),
      projected(leaving.email),
    ]);
    // The sign-up grant reaches the ledger through the bus: wait for it, so +50 reads 250.
    await waitFor(
      async () =>
        (await stack.request<{ balance: number }>('GET', '/tokens/balance', { token: plain.token })).body.balance ===
        200,
      'the ledger grants the sign-up tokens',
      120_000,
    );
    app = await serveApp(stack.base);
    browser = await launchBrowser();
    page = await newDesktopPage(browser);
  }, 420_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await stack?.stop();
  });

  const search = async (text: string) => {
    const box = page.getByRole('searchbox', { name: 'Search users' });
    await box.fill(text);
  };
  // A toast's text is also read out by the notification area's live region: take the toast.
  const toastText = (text: string) => page.getByText(text, { exact: true }).first();
  const row = (email: string) => page.locator(`tr[data-email="${email}"]`);

  it('signs the operator in through Admin Authentication', async () => {
    await page.goto(`${app.base}/admin`);
    const dialog = page.getByRole('dialog', { name: 'Admin Authentication' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Sign In' }).click();
    await toastText('Please enter both email and password').waitFor();
    await dialog.getByLabel('Email').fill(stack.admin.email);
    await dialog.getByLabel('Password').fill('not the password');
    await dialog.getByRole('button', { name: 'Sign In' }).click();
    await toastText('Login failed').waitFor();
    await dialog.getByLabel('Password').fill(stack.admin.password);
    await dialog.getByRole('button', { name: 'Sign In' }).click();
    await toastText('Welcome to the admin dashboard').waitFor();
    await page.getByText('Live Data').waitFor();
    assert.ok(await page.evaluate(`localStorage.getItem('admin_token')`));
    await page.getByRole('article', { name: 'New Signups Today' }).getByText('total users').waitFor();
    await page.getByRole('table', { name: 'Users' }).waitFor();
    await screenshot(page, 'admin-dashboard-1440');
  });

  it('finds a user with plan:studio and another with email:…', async () => {
    await search('plan:studio');
    // The unfiltered list shows until the search answers: wait for the free user to leave it.
    await waitFor(async () => (await row(plain.email).count()) === 0, 'the list is the plan:studio search', 30_000);
    await row(subscriber.email).waitFor();
    assert.equal(await row(subscriber.email).locator('.plan-badge').textContent(), 'Studio');
    for (const badge of await page.locator('tbody .plan-badge').allTextContents()) assert.equal(badge, 'Studio');
    await search(`email:${plain.email}`);
    await row(plain.email).waitFor();
    await page.getByText('1 user', { exact: true }).waitFor();
    assert.equal(await page.locator('tbody tr').count(), 1);
  });

  it('adds 50 credits and sees the balance change', async () => {
    await page.getByRole('button', { name: `Manage credits for ${plain.email}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Manage Credits' });
    await dialog.getByLabel('Amount (tokens)').fill('50');
    await dialog.getByRole('button', { name: 'Add Credits' }).click();
    await toastText(`Added 50 tokens to ${plain.email} (balance 250)`).waitFor();
    await row(plain.email).locator('.users-table__tokens', { hasText: '250' }).waitFor();
    // The ledger holds it, and analytics follows.
    const balance = await stack.request<{ balance: number }>('GET', '/tokens/balance', { token: plain.token });
    assert.equal(balance.body.balance, 250);
    await screenshot(page, 'admin-credits-added-1440');
  });

  it('deletes a user', async () => {
    await search(`email:${leaving.email}`);
    await row(leaving.email).waitFor();
    await page.getByRole('button', { name: `Delete ${leaving.email}` }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete User Account' });
    await dialog.getByRole('button', { name: 'Delete Account' }).click();
    await toastText('User account deleted successfully').waitFor();
    await page.getByText('No users found matching your search').waitFor();
    assert.equal((await stack.request('GET', '/auth/me', { token: leaving.token })).status, 401);
  });

  it('switches the signups chart through all five periods and selects a point', async () => {
    const chart = page.getByRole('article', { name: 'Signups Trend' });
    const dots = chart.getByRole('button', { name: /signups?$/ });
    const counts: Record<string, number> = {};
    for (const label of ['30D', '3M', '1Y', 'Lifetime', '7D']) {
      await chart.getByRole('button', { name: label, exact: true }).click();
      await chart.locator(`button[aria-pressed="true"]`, { hasText: label }).waitFor();
      await waitFor(async () => (await dots.count()) > 0, `the ${label} chart has points`, 30_000);
      counts[label] = await dots.count();
    }
    assert.equal(counts['7D'], 7);
    assert.equal(counts['30D'], 30);
    assert.ok(counts['3M']! >= 13 && counts['3M']! <= 14, `3M has ${counts['3M']} weekly points`);
    assert.equal(counts['1Y'], 12);
    assert.ok(counts.Lifetime! >= 1);
    // Today's point holds this run's sign-ups: select it, deselect it, select it and change period.
    const today = dots.last();
    await today.click();
    await chart.getByRole('button', { name: 'Clear Selection' }).waitFor();
    await today.click();
    await waitFor(
      async () => (await chart.getByRole('button', { name: 'Clear Selection' }).count()) === 0,
      'deselected',
    );
    await today.click();
    await chart.getByRole('button', { name: 'Clear Selection' }).waitFor();
    await chart.getByRole('button', { name: '30D', exact: true }).click();
    await waitFor(
      async () => (await chart.getByRole('button', { name: 'Clear Selection' }).count()) === 0,
      'a period change clears the selection',
    );
  });

  it('has no serious or critical accessibility violation on /admin', async () => {
    const violations = await seriousViolations(page);
    assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
  });

  it('shows a signed-in customer /account with no serious or critical accessibility violation', async () => {
    const customerPage = await newDesktopPage(browser);
    await customerPage.goto(`${app.base}/`);
    await customerPage.evaluate(`localStorage.setItem('auth_token', ${JSON.stringify(plain.token)})`);
    await customerPage.goto(`${app.base}/account`);
    await customerPage.getByRole('heading', { name: 'My Account' }).waitFor();
    await customerPage.getByText(plain.email, { exact: true }).first().waitFor();
    await customerPage.getByTestId('token-balance').getByText('250').waitFor();
    // Billing answers (no subscription here): the card settles into a state (no endless spinner).
    await waitFor(
      async () => (await customerPage.getByRole('status', { name: 'Loading your subscription' }).count()) === 0,
      'the subscription card settles',
    );
    await screenshot(customerPage, 'account-1440');
    const violations = await seriousViolations(customerPage);
    assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
    await customerPage.context().close();
  });
});
