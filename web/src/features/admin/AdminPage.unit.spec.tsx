// @vitest-environment jsdom
import assert from 'node:assert/strict';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, it, vi } from 'vitest';
import { resetToasts } from '../../components/toast/toast-store';
import AdminPage from '../../pages/AdminPage';
import { customer, fakeApi, json, renderPage } from '../../test/fake-api';
import { adminUser, overview, page, trend } from './admin-fixtures';
import { adminRetryPolicy } from './admin-queries';
import { ADMIN_TOKEN_KEY } from './admin-session';

const routes = (over: Record<string, Parameters<typeof fakeApi>[0][string]> = {}) => ({
  'GET /api/admin/stats/signups': json(200, { new_signups_24h: 12, total_users: 1234 }),
  'GET /api/admin/stats/paid-users': json(200, { paid_users_last_24h: 3, total_paid_users: 87 }),
  'GET /api/admin/stats/overview': json(200, overview),
  'GET /api/admin/stats/trend': ({ url }: { url: URL }) => json(200, trend(url.searchParams.get('period') ?? '7d')),
  'GET /api/admin/users': json(200, page([adminUser({ email: 'ada@example.com', subscription_plan: 'studio' })])),
  ...over,
});

beforeEach(() => {
  localStorage.clear();
  resetToasts();
  adminRetryPolicy.delayMs = () => 1;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const dialog = () => screen.getByRole('dialog', { name: 'Admin Authentication' });

async function signIn(email: string, password: string) {
  const d = dialog();
  if (email) await userEvent.type(within(d).getByLabelText('Email'), email);
  if (password) await userEvent.type(within(d).getByLabelText('Password'), password);
  await userEvent.click(within(d).getByRole('button', { name: 'Sign In' }));
}

describe('/admin sign-in', () => {
  it('opens Admin Authentication without a session and asks for both fields', async () => {
    const api = fakeApi(routes());
    renderPage(<AdminPage />, { path: '/admin' });
    assert.equal(within(dialog()).getByLabelText('Email').hasAttribute('required'), true);
    assert.equal(within(dialog()).getByLabelText('Password').hasAttribute('required'), true);
    await signIn('ops@example.com', '');
    await screen.findByText('Missing credentials');
    screen.getByText('Please enter both email and password');
    assert.equal(api.sent.length, 0);
  });

  it("says 'Login failed' with the server's reason, and posts the e-mail as username, form-encoded", async () => {
    const api = fakeApi(routes({ 'POST /api/admin/login': json(401, { detail: 'Invalid admin credentials' }) }));
    renderPage(<AdminPage />, { path: '/admin' });
    await signIn('ops@example.com', 'wrong password');
    await screen.findByText('Login failed');
    screen.getByText('Invalid admin credentials');
    const [login] = api.calls('POST', '/api/admin/login');
    assert.equal(login?.headers.get('Content-Type'), 'application/x-www-form-urlencoded');
    assert.deepEqual(Object.fromEntries(new URLSearchParams(login?.body)), {
      username: 'ops@example.com',
      password: 'wrong password',
    });
    assert.equal(localStorage.getItem(ADMIN_TOKEN_KEY), null);
    dialog();
  });

  it("says 'Login error' when the server cannot be reached", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    renderPage(<AdminPage />, { path: '/admin' });
    await signIn('ops@example.com', 'secret');
    await screen.findByText('Login error');
    screen.getByText('An error occurred during login. Please try again.');
  });

  it('keeps the token as admin_token and shows the live dashboard', async () => {
    const api = fakeApi(
      routes({ 'POST /api/admin/login': json(200, { access_token: 'adm-1', token_type: 'bearer' }) }),
    );
    renderPage(<AdminPage />, { path: '/admin' });
    await signIn('ops@example.com', 'secret');
    await screen.findByText('Admin login successful');
    screen.getByText('Welcome to the admin dashboard');
    assert.equal(localStorage.getItem(ADMIN_TOKEN_KEY), 'adm-1');
    await screen.findByText('Live Data');
    const signups = await screen.findByRole('article', { name: 'New Signups Today' });
    await within(signups).findByText('12');
    within(signups).getByText('1,234 total users');
    const paid = screen.getByRole('article', { name: 'Paid Users Today' });
    within(paid).getByText('3');
    within(paid).getByText(/87 total paid users/);
    const anonymous = screen.getByRole('article', { name: 'Anonymous Purchases' });
    within(anonymous).getByText('9');
    within(anonymous).getByText('One-time image purchases');
    const chargebacks = screen.getByRole('article', { name: 'Chargebacks' });
    within(chargebacks).getByText('2');
    within(chargebacks).getByText(/1 open/);
    assert.equal(screen.queryByRole('dialog', { name: 'Admin Authentication' }), null);
    for (const call of api.sent.filter((r) => r.path !== '/api/admin/login'))
      assert.equal(call.headers.get('Authorization'), 'Bearer adm-1');
  });
});

describe('/admin with a session', () => {
  it('shows growth this month against last month, and the plan distribution with bars', async () => {
    localStorage.setItem(ADMIN_TOKEN_KEY, 'adm-1');
    fakeApi(routes());
    renderPage(<AdminPage />, { path: '/admin' });
    const growth = await screen.findByRole('article', { name: 'User Growth Trend' });
    await within(growth).findByText('150');
    within(growth).getByText('120');
    within(growth).getByText('+25.0%');
    const plans = screen.getByRole('article', { name: 'Plan Distribution' });
    const rows = within(plans)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    assert.deepEqual(rows, ['Lite40', 'Studio30', 'Unlimited5', 'No Plan1,159']);
    assert.ok(within(plans).getByText('Lite').className.includes('plan-badge--blue'));
    assert.ok(within(plans).getByText('Studio').className.includes('plan-badge--purple'));
    assert.ok(within(plans).getByText('Unlimited').className.includes('plan-badge--green'));
    const bars = [...plans.querySelectorAll<HTMLElement>('.plan-bars__bar')].map((b) => b.style.width);
    assert.deepEqual(bars, ['3%', '2%', '0%', '94%']);
  });

  it('shows a loading state while the stored session is checked', async () => {
    localStorage.setItem(ADMIN_TOKEN_KEY, 'adm-1');
    let release: () => void = () => undefined;
    const held = new Promise<void>((ok) => {
      release = ok;
    });
    fakeApi(
      routes({
        'GET /api/admin/stats/signups': async () => {
          await held;
          return json(200, { new_signups_24h: 1, total_users: 2 });
        },
      }),
    );
    renderPage(<AdminPage />, { path: '/admin' });
    screen.getByText('Checking admin session');
    release();
    await screen.findByRole('article', { name: 'New Signups Today' });
  });

  it('drops the token and reopens the dialog on a 401 or 403 from an admin call', async () => {
    for (const status of [401, 403]) {
      localStorage.setItem(ADMIN_TOKEN_KEY, 'stale');
      localStorage.setItem('auth_token', 'customer-session');
      fakeApi(
        routes({
          'GET /api/admin/stats/signups': json(status, { detail: 'Admin authentication required' }),
          'GET /api/auth/me': json(200, customer()),
        }),
      );
      renderPage(<AdminPage />, { path: '/admin' });
      await screen.findByRole('dialog', { name: 'Admin Authentication' });
      assert.equal(localStorage.getItem(ADMIN_TOKEN_KEY), null);
      // The customer's own session is another matter: it stays.
      assert.equal(localStorage.getItem('auth_token'), 'customer-session');
      cleanup();
    }
  });

  it('logs out: the token goes and the dialog opens again', async () => {
    localStorage.setItem(ADMIN_TOKEN_KEY, 'adm-1');
    fakeApi(routes());
    renderPage(<AdminPage />, { path: '/admin' });
    await userEvent.click(await screen.findByRole('button', { name: 'Logout' }));
    await screen.findByRole('dialog', { name: 'Admin Authentication' });
    assert.equal(localStorage.getItem(ADMIN_TOKEN_KEY), null);
    await waitFor(() => assert.equal(screen.queryByText('Live Data'), null));
  });
});
