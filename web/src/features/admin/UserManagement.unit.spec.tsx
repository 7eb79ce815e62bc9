// @vitest-environment jsdom
import assert from 'node:assert/strict';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, it, vi } from 'vitest';
import { resetToasts } from '../../components/toast/toast-store';
import { fakeApi, json, renderPage, type SentRequest } from '../../test/fake-api';
import { adminUser, page } from './admin-fixtures';
import { adminRetryPolicy } from './admin-queries';
import { ADMIN_TOKEN_KEY } from './admin-session';
import { forgetPendingChanges } from './pending-changes';
import { parseAmount } from './ManageCreditsDialog';
import { UserManagement } from './UserManagement';

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem(ADMIN_TOKEN_KEY, 'adm-1');
  resetToasts();
  adminRetryPolicy.delayMs = () => 1;
  forgetPendingChanges();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const show = () => renderPage(<UserManagement enabled />, { path: '/admin' });
const params = (r: SentRequest | undefined) => Object.fromEntries(r?.url.searchParams ?? []);
const lastUsersCall = (api: ReturnType<typeof fakeApi>) => api.calls('GET', '/api/admin/users').at(-1);

const ada = adminUser({ email: 'ada@example.com', name: 'Ada', subscription_plan: 'studio', token_balance: 4000 });
const bob = adminUser({ email: 'bob@example.com', name: 'Bob', token_balance: 20 });
const cy = adminUser({ email: 'cy@example.com', name: 'Cy', subscription_plan: 'unlimited', is_unlimited: true });

describe('the user list states', () => {
  it('shows loading, then the users with their plan badges', async () => {
    fakeApi({ 'GET /api/admin/users': json(200, page([ada, bob, cy])) });
    show();
    screen.getByText('Loading users');
    const table = await screen.findByRole('table', { name: 'Users' });
    const rows = within(table).getAllByRole('row').slice(1);
    assert.deepEqual(
      rows.map((r) => within(r).getAllByRole('cell')[0]?.textContent),
      ['Adaada@example.com', 'Bobbob@example.com', 'Cycy@example.com'],
    );
    assert.ok(within(rows[0]!).getByText('Studio').className.includes('plan-badge--purple'));
    assert.ok(within(rows[2]!).getByText('Unlimited').className.includes('plan-badge--green'));
    screen.getByText('3 users');
  });

  it("retries three times, then says 'Failed to load users' with Retry", async () => {
    let fail = true;
    const api = fakeApi({
      'GET /api/admin/users': () => (fail ? json(500, { detail: 'database unavailable' }) : json(200, page([ada]))),
    });
    show();
    await screen.findByText('Failed to load users');
    assert.equal(api.calls('GET', '/api/admin/users').length, 4);
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByRole('table', { name: 'Users' });
  });

  it("says 'No users found', or 'No users found matching your search' when searching", async () => {
    const api = fakeApi({ 'GET /api/admin/users': json(200, page([])) });
    show();
    await screen.findByText('No users found');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search users' }), 'nobody');
    await screen.findByText('No users found matching your search');
    await waitFor(() => assert.equal(params(lastUsersCall(api)).q, 'nobody'));
  });
});

describe('searching, filtering and paging on the server', () => {
  it('sends the search text, field:value included, from page 1 with 50 a page', async () => {
    const api = fakeApi({
      'GET /api/admin/users': ({ url }) =>
        json(200, page(url.searchParams.get('q') === 'plan:studio' ? [ada] : [ada, bob, cy])),
    });
    show();
    await screen.findByText('3 users');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search users' }), 'plan:studio');
    await screen.findByText('1 user');
    await waitFor(() =>
      assert.deepEqual(params(lastUsersCall(api)), {
        q: 'plan:studio',
        plan: 'all',
        signup: 'all',
        balance: 'all',
        page: '1',
        page_size: '50',
      }),
    );
  });

  it('opens the filters and sends plan, signup window and balance band', async () => {
    const api = fakeApi({ 'GET /api/admin/users': json(200, page([bob])) });
    show();
    await screen.findByText('1 user');
    const toggle = screen.getByRole('button', { name: 'Filters' });
    assert.equal(toggle.getAttribute('aria-expanded'), 'false');
    await userEvent.click(toggle);
    assert.equal(toggle.getAttribute('aria-expanded'), 'true');
    await userEvent.selectOptions(screen.getByLabelText('Plan'), 'none');
    await userEvent.selectOptions(screen.getByLabelText('Signed up'), '30');
    await userEvent.selectOptions(screen.getByLabelText('Token balance'), 'medium');
    await waitFor(() =>
      assert.deepEqual(params(lastUsersCall(api)), {
        plan: 'none',
        signup: '30',
        balance: 'medium',
        page: '1',
        page_size: '50',
      }),
    );
    screen.getByRole('button', { name: 'Filters (3)' });
    assert.deepEqual(
      within(screen.getByLabelText('Plan'))
        .getAllByRole('option')
        .map((o) => (o as HTMLOptionElement).value),
      ['all', 'lite', 'studio', 'unlimited', 'none'],
    );
    assert.deepEqual(
      within(screen.getByLabelText('Token balance'))
        .getAllByRole('option')
        .map((o) => (o as HTMLOptionElement).value),
      ['all', 'high', 'medium', 'low', 'zero'],
    );
    await userEvent.click(screen.getByRole('button', { name: 'Clear Filters' }));
    screen.getByRole('button', { name: 'Filters' });
    assert.equal((screen.getByLabelText('Plan') as HTMLSelectElement).value, 'all');
  });

  it('pages 50 at a time with at most five page buttons', async () => {
    const api = fakeApi({
      'GET /api/admin/users': ({ url }) =>
        json(
          200,
          page(
            [adminUser({ email: `p${url.searchParams.get('page')}@example.com` })],
            600,
            Number(url.searchParams.get('page')),
          ),
        ),
    });
    show();
    const nav = await screen.findByRole('navigation', { name: 'User pages' });
    const numbers = () =>
      within(nav)
        .getAllByRole('button', { name: /^Page / })
        .map((b) => b.textContent);
    assert.deepEqual(numbers(), ['1', '2', '3', '4', '5']);
    assert.equal(within(nav).getByRole('button', { name: 'Previous' }).hasAttribute('disabled'), true);
    await userEvent.click(within(nav).getByRole('button', { name: 'Page 5' }));
    await screen.findByText('p5@example.com');
    assert.deepEqual(numbers(), ['3', '4', '5', '6', '7']);
    assert.equal(within(nav).getByRole('button', { name: 'Page 5' }).getAttribute('aria-current'), 'page');
    await userEvent.click(within(nav).getByRole('button', { name: 'Next' }));
    await screen.findByText('p6@example.com');
    assert.equal(params(lastUsersCall(api)).page, '6');
  });

  it("searches and pages the bare list itself when the server answers the original's shape", async () => {
    fakeApi({ 'GET /api/admin/users': json(200, [ada, bob, cy]) });
    show();
    await screen.findByText('3 users');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search users' }), 'plan:unlimited');
    await screen.findByText('1 user');
    screen.getByText('cy@example.com');
  });
});

describe('the Manage Credits dialog', () => {
  it('parses the amount as a whole number above zero', () => {
    assert.deepEqual(['50', ' 7 ', '0', '-3', '1.5', 'abc', ''].map(parseAmount), [
      50,
      7,
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it('adds credits, shows the server message and refreshes the list', async () => {
    let balance = 4000;
    const api = fakeApi({
      'GET /api/admin/users': () => json(200, page([{ ...ada, token_balance: balance }])),
      'POST /api/admin/tokens/adjust': () => {
        balance += 50;
        return json(200, {
          message: `Added 50 tokens to ada@example.com (balance ${balance})`,
          token_balance: balance,
          applied: 50,
        });
      },
    });
    show();
    await userEvent.click(await screen.findByRole('button', { name: 'Manage credits for ada@example.com' }));
    const dialog = screen.getByRole('dialog', { name: 'Manage Credits' });
    const confirm = within(dialog).getByRole('button', { name: 'Add Credits' });
    assert.equal(confirm.hasAttribute('disabled'), true);
    await userEvent.type(within(dialog).getByLabelText('Amount (tokens)'), '50');
    await userEvent.click(confirm);
    await screen.findByText('Added 50 tokens to ada@example.com (balance 4050)');
    assert.deepEqual(JSON.parse(api.calls('POST', '/api/admin/tokens/adjust')[0]!.body), {
      user_email: 'ada@example.com',
      tokens: 50,
      action: 'add',
    });
    await screen.findByText('4,050');
    assert.equal(screen.queryByRole('dialog', { name: 'Manage Credits' }), null);
  });

  it('deducts, and shows the refusal when the server says no', async () => {
    const api = fakeApi({
      'GET /api/admin/users': json(200, page([bob])),
      'POST /api/admin/tokens/adjust': json(404, { detail: 'User not found' }),
    });
    show();
    await userEvent.click(await screen.findByRole('button', { name: 'Manage credits for bob@example.com' }));
    const dialog = screen.getByRole('dialog', { name: 'Manage Credits' });
    await userEvent.click(within(dialog).getByLabelText('Deduct Credits'));
    fireEvent.change(within(dialog).getByLabelText('Amount (tokens)'), { target: { value: '7' } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Deduct Credits' }));
    await screen.findByText('User not found');
    assert.equal(JSON.parse(api.calls('POST', '/api/admin/tokens/adjust')[0]!.body).action, 'deduct');
    screen.getByRole('dialog', { name: 'Manage Credits' });
  });

  it('shows a note instead of the form for an unlimited user', async () => {
    fakeApi({ 'GET /api/admin/users': json(200, page([cy])) });
    show();
    await userEvent.click(await screen.findByRole('button', { name: 'Manage credits for cy@example.com' }));
    const dialog = screen.getByRole('dialog', { name: 'Manage Credits' });
    within(dialog).getByText(/Unlimited plan/);
    assert.equal(within(dialog).queryByLabelText('Amount (tokens)'), null);
  });
});

describe('changes the read model has not caught up with yet', () => {
  it('shows the balance and the deletion the server confirmed, until the list agrees', async () => {
    // The list keeps answering the old rows: analytics has not heard of either change yet.
    fakeApi({
      'GET /api/admin/users': json(200, page([ada, bob])),
      'POST /api/admin/tokens/adjust': json(200, { message: 'Added 50 tokens', token_balance: 4050, applied: 50 }),
      'DELETE /api/admin/user/delete': json(200, { message: 'User account deleted successfully' }),
    });
    show();
    await userEvent.click(await screen.findByRole('button', { name: 'Manage credits for ada@example.com' }));
    await userEvent.type(screen.getByLabelText('Amount (tokens)'), '50');
    await userEvent.click(screen.getByRole('button', { name: 'Add Credits' }));
    await screen.findByText('4,050');
    await userEvent.click(screen.getByRole('button', { name: 'Delete bob@example.com' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete Account' }));
    await waitFor(() => assert.equal(screen.queryByText('bob@example.com'), null));
    screen.getByText('1 user');
  });
});

describe('the Delete User Account dialog', () => {
  it('asks, deletes by e-mail and says so', async () => {
    let users = [ada, bob];
    const api = fakeApi({
      'GET /api/admin/users': () => json(200, page(users)),
      'DELETE /api/admin/user/delete': ({ url }) => {
        users = users.filter((u) => u.email !== url.searchParams.get('email'));
        return json(200, { message: 'User account deleted successfully' });
      },
    });
    show();
    await userEvent.click(await screen.findByRole('button', { name: 'Delete bob@example.com' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete User Account' });
    within(dialog).getByText('bob@example.com');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete Account' }));
    await screen.findByText('User account deleted successfully');
    assert.equal(api.calls('DELETE', '/api/admin/user/delete')[0]?.url.searchParams.get('email'), 'bob@example.com');
    await waitFor(() => assert.equal(screen.queryByText('bob@example.com'), null));
  });

  it('cancels without deleting, and shows a refusal', async () => {
    const api = fakeApi({
      'GET /api/admin/users': json(200, page([ada])),
      'DELETE /api/admin/user/delete': json(409, { detail: 'You cannot delete your own account' }),
    });
    show();
    await userEvent.click(await screen.findByRole('button', { name: 'Delete ada@example.com' }));
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    assert.equal(api.calls('DELETE', '/api/admin/user/delete').length, 0);
    await userEvent.click(screen.getByRole('button', { name: 'Delete ada@example.com' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete Account' }));
    await screen.findByText('You cannot delete your own account');
  });
});
