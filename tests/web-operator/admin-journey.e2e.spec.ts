// The operator's journey in real headless Chromium against the built app and a started gateway
// with real identity, ledger and analytics (Postgres, Kafka, Redis): sign in, find users by plan
// and by e-mail, add credits, delete a user, walk the chart through its periods, save the
// generative provider's key on /settings and test it against a provider served here; axe-core on
// /admin, /settings and /account; screenshots at 1440 px under reports/web-operator/.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { Browser, Locator, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { events, eventTypes, topics } from '@flatlay/proto';
import { outboxMessage } from '@flatlay/platform';
import { startStack, type Stack, type TokenBody } from '../../gateway/test/support/stack.js';
import { waitFor } from '../../services/platform/test/support.js';
import {
  buildWebApp,
  launchChromium,
  newDesktopPage,
  screenshotsIn,
  seriousViolations,
  serveApp,
  WCAG_AA,
} from '../support/browser.js';

type Person = Awaited<ReturnType<Stack['newUser']>>;

/** Saves the page at 375 px and 1440 px (`<name>-375`, `<name>-1440`), back at 1440 px after. */
async function screenshotBoth(page: Page, name: string) {
  for (const width of [375, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `${name}-${width}`);
  }
}
interface Row {
  email: string;
  token_balance: number;
  subscription_plan: string;
}

/** The generative provider's key the provider served here accepts, and one it refuses. */
const GOOD_KEY = `sk-e2e-${randomUUID().replaceAll('-', '')}-Good`;
const WRONG_KEY = `sk-e2e-${randomUUID().replaceAll('-', '')}-Nope`;
const screenshot = screenshotsIn('web-operator');

describe('the operator in the browser', { timeout: 420_000 }, () => {
  let stack: Stack;
  /** An OpenAI-compatible model list (GET /v1/models) that knows GOOD_KEY, and the keys it was sent. */
  let provider: Server;
  const providerSaw: string[] = [];
  let app: Awaited<ReturnType<typeof serveApp>>;
  /** This run's build of the web app. */
  let built: string | undefined;
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
      // The stack's own topics (ADR 0010): analytics reads this journey's events only.
      60_000,
    );

  beforeAll(async () => {
    built = buildWebApp();
    provider = createServer((req, res) => {
      providerSaw.push(String(req.headers.authorization));
      res.setHeader('content-type', 'application/json');
      if (req.url !== '/v1/models') {
        res.statusCode = 404;
        res.end(JSON.stringify({ error: { message: 'no such path' } }));
      } else if (req.headers.authorization !== `Bearer ${GOOD_KEY}`) {
        res.statusCode = 401;
        res.end(JSON.stringify({ error: { message: 'Incorrect API key provided' } }));
      } else res.end(JSON.stringify({ object: 'list', data: [{ id: 'image-1' }, { id: 'image-2' }] }));
    });
    await new Promise<void>((ok) => provider.listen(0, '127.0.0.1', ok));
    const providerPort = (provider.address() as { port: number }).port;
    // Billing too: /account asks for the subscription, and a missing service would be a 503, on
    // which the web client ends the session (a real outage only). Analytics holds the operator
    // settings: a key to seal secrets with (without one, saving a secret answers 501) and the
    // provider served above; its own database and consumer group, so no other run shares them.
    stack = await startStack('web-operator-e2e', undefined, {
      analytics: {
        consumerGroup: `web-operator-analytics-${randomUUID().slice(0, 8)}`,
        settings: {
          SETTINGS_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
          GENERATIVE_PROVIDER: 'openai',
          GENERATIVE_API_URL: `http://127.0.0.1:${providerPort}/v1`,
        },
      },
      billing: {},
    });
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
      60_000,
    );
    app = await serveApp(stack.base, built);
    browser = await launchChromium();
    page = await newDesktopPage(browser);
    page.on('response', (answer) => void noteUserList(answer));
  }, 420_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await stack?.stop();
    await new Promise((ok) => provider?.close(ok));
    if (built) await rm(built, { recursive: true, force: true });
  });

  /** The user list's answers the page read, newest last: what a failed wait on a row prints. */
  const userLists: string[] = [];
  const noteUserList = async (answer: Response) => {
    const url = new URL(answer.url());
    if (url.pathname !== '/api/admin/users') return;
    const body = (await answer.json().catch(() => undefined)) as { users?: Row[] } | undefined;
    const plan = body?.users?.find((u) => u.email === plain?.email)?.subscription_plan ?? '(not listed)';
    userLists.push(`${new Date().toISOString()} q=${url.searchParams.get('q')} ${answer.status()} plain: ${plan}`);
  };
  /** Waits for a row's part; a timeout says what the row, the search box and the list's answers were. */
  const shows = async (email: string, part: Locator) =>
    part.waitFor().catch(async (error: Error) => {
      const text = await row(email)
        .textContent({ timeout: 1_000 })
        .catch(() => '(no row)');
      const box = await page.getByRole('searchbox', { name: 'Search users' }).inputValue({ timeout: 1_000 });
      throw new Error(
        `${error.message}\nrow: ${text}\nsearch box: ${box}\nlist answers:\n${userLists.slice(-12).join('\n')}`,
      );
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

  it('grants the unlimited plan from user management and revokes it; the profile and the plan filter follow', async () => {
    const me = async () =>
      (await stack.request<{ isUnlimited: boolean }>('GET', '/auth/me', { token: plain.token })).body.isUnlimited;
    await row(plain.email)
      .getByRole('button', { name: `Grant unlimited for ${plain.email}` })
      .click();
    await toastText(`${plain.email} now has the unlimited plan`).waitFor();
    await shows(plain.email, row(plain.email).locator('.plan-badge', { hasText: 'Unlimited' }));
    await waitFor(me, 'identity makes the profile unlimited', 60_000);
    await projected(plain.email, (r) => r.subscription_plan === 'unlimited');
    // The plan filter finds them under unlimited.
    await search('plan:unlimited');
    await shows(plain.email, row(plain.email).getByRole('button', { name: `Revoke unlimited for ${plain.email}` }));
    await screenshotBoth(page, 'admin-unlimited-granted');
    // At 1440 px (screenshotBoth ends there) every column of a row, its actions included, fits the
    // card: nothing scrolled out of sight. A phone scrolls the table sideways.
    type Box = { scrollWidth: number; clientWidth: number };
    const hidden = await page
      .locator('.users .table-scroll')
      .evaluate((el) => (el as unknown as Box).scrollWidth - (el as unknown as Box).clientWidth);
    assert.ok(hidden <= 0, `the user table hides ${hidden} px at 1440 px`);
    await row(plain.email)
      .getByRole('button', { name: `Revoke unlimited for ${plain.email}` })
      .click();
    await toastText(`${plain.email} no longer has the unlimited plan`).waitFor();
    await waitFor(async () => !(await me()), 'identity ends the unlimited plan', 60_000);
    // The user list is analytics' projection, as after the grant above: a search made before it has
    // read the revocation would show the plan it had (CI saw the badge stay "Unlimited" for 30 s).
    await projected(plain.email, (r) => r.subscription_plan !== 'unlimited');
    await search(`email:${plain.email}`);
    await shows(plain.email, row(plain.email).locator('.plan-badge', { hasText: 'No Plan' }));
    await row(plain.email)
      .getByRole('button', { name: `Grant unlimited for ${plain.email}` })
      .waitFor();
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
    const violations = await seriousViolations(page, { tags: WCAG_AA });
    assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
  });

  it("saves the generative provider's key on /settings, shows it masked, and its Test reports the outcome", async () => {
    await page.goto(`${app.base}/settings`);
    await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor();
    await page.getByRole('tab', { name: 'API Keys', selected: true }).waitFor();
    const field = page.getByLabel('Openai API Key', { exact: true });
    const setting = page.locator('.settings__key', { has: field });
    const badge = (status: string) => setting.locator('.key-status', { hasText: status });
    const test = page.getByRole('button', { name: 'Test Openai API Key' });
    await badge('inactive').waitFor();
    assert.equal(await field.inputValue(), '');
    assert.equal(await test.isDisabled(), true, 'Test is disabled for an empty field');

    // A key the provider refuses: saved, shown masked to its last 4, and Test says why it failed.
    const save = async (key: string) => {
      await field.fill(key);
      const bar = page.getByRole('region', { name: 'Unsaved changes' });
      await bar.getByText('You have unsaved changes').waitFor();
      await bar.getByRole('button', { name: 'Save Changes' }).click();
      // Saved: the form reloads from the server, which shows the secret as ****<last 4>.
      await waitFor(async () => (await field.inputValue()) === `****${key.slice(-4)}`, 'the saved key is masked');
      await bar.waitFor({ state: 'detached' });
      await setting.getByText('Saved and hidden; type a new value to replace it.').waitFor();
    };
    await save(WRONG_KEY);
    await toastText('Settings saved').waitFor();
    await badge('unknown').waitFor();
    await test.click();
    await toastText('Connection failed').waitFor();
    await toastText('Connection failed: openai refused the key: HTTP 401 (Incorrect API key provided)').waitFor();
    await badge('invalid').waitFor();
    await screenshot(page, 'settings-test-failed-1440');

    // The key it knows: saved in place of the other, masked, and Test connects.
    await save(GOOD_KEY);
    await badge('unknown').waitFor();
    await test.click();
    await toastText('Connection successful').waitFor();
    await toastText('Connected to openai: 2 models available').waitFor();
    await badge('active').waitFor();
    assert.deepEqual(providerSaw, [`Bearer ${WRONG_KEY}`, `Bearer ${GOOD_KEY}`], 'each Test sent the saved key');

    // The page never holds the key itself, also after a reload.
    await page.reload();
    await badge('active').waitFor();
    assert.equal(await field.inputValue(), `****${GOOD_KEY.slice(-4)}`);
    const html = await page.content();
    assert.ok(!html.includes(GOOD_KEY) && !html.includes(WRONG_KEY), 'no key in the page');
    await screenshot(page, 'settings-1440');
    const violations = await seriousViolations(page, { tags: WCAG_AA });
    assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
  });

  it('offers price ids only for plans that are sold, and /api/stripe/config answers the saved publishable key', async () => {
    await page.getByRole('tab', { name: 'Payment Configuration' }).click();
    const key = page.getByLabel('Stripe Publishable Key', { exact: true });
    await key.waitFor();
    await page.getByLabel('Lite Plan Price ID ($19/month)').waitFor();
    await page.getByLabel('Studio Plan Price ID ($79/month)').waitFor();
    // The catalogue sells no pro or agency plan: their price ids are not offered.
    assert.equal(await page.getByLabel('Pro Plan Price ID ($39/month)').count(), 0);
    assert.equal(await page.getByLabel('Agency Plan Price ID ($149/month)').count(), 0);
    const saved = `pk_test_${randomUUID().replaceAll('-', '')}`;
    await key.fill(saved);
    const bar = page.getByRole('region', { name: 'Unsaved changes' });
    await bar.getByRole('button', { name: 'Save Changes' }).click();
    await toastText('Settings saved').waitFor();
    await waitFor(
      async () =>
        (await stack.request<{ publishableKey: string }>('GET', '/stripe/config')).body.publishableKey === saved,
      '/api/stripe/config answers the saved key',
      60_000,
    );
    await screenshotBoth(page, 'settings-payment-configuration');
  });

  it('shows a signed-in customer /account with no serious or critical accessibility violation', async () => {
    const customerPage = await newDesktopPage(browser);
    // The session before the app's first script, straight on /account: the home page (rendered at
    // once since ADR 0714) asks the image service, which this stack lacks, and its 503 would reset
    // the session (ADR 0701) under the token just stored.
    await customerPage.addInitScript(`localStorage.setItem('auth_token', ${JSON.stringify(plain.token)})`);
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
    const violations = await seriousViolations(customerPage, { tags: WCAG_AA });
    assert.deepEqual(violations, [], JSON.stringify(violations, null, 2));
    await customerPage.context().close();
  });
});
