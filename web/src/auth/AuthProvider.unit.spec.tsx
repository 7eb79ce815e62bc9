// @vitest-environment jsdom
import assert from 'node:assert/strict';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, it, vi } from 'vitest';
import { createQueryClient } from '../api/queries';
import type { UserProfile } from '../api/schema';
import { storageKeys } from '../lib/storage';
import { useAuth } from './auth-context';
import { AuthProvider } from './AuthProvider';

const profile: UserProfile = {
  id: 'u1',
  email: 'ada@example.com',
  tokenBalance: 200,
  firstName: 'Ada',
  lastName: null,
  avatarUrl: null,
  name: 'Ada',
  stripeCustomerId: null,
  stripeSubscriptionId: null,
  subscriptionPlan: 'none',
  subscriptionStatus: null,
  subscriptionPlanName: null,
  subscriptionPeriodEnd: null,
  isUnlimited: false,
  emailVerified: true,
  role: 'user',
  createdAt: null,
};
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

let auth: ReturnType<typeof useAuth> | null = null;
function Probe() {
  auth = useAuth();
  return <p>{auth.loading ? 'loading' : auth.authUser ? `signed in as ${auth.authUser.email}` : 'signed out'}</p>;
}

function mount(waits: number[] = []) {
  const client = createQueryClient();
  render(
    <QueryClientProvider client={client}>
      <AuthProvider wait={async (ms) => void waits.push(ms)}>
        <Probe />
      </AuthProvider>
    </QueryClientProvider>,
  );
  return client;
}

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('AuthProvider', () => {
  it('is signed out without a token', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    mount();
    await screen.findByText('signed out');
    assert.equal(fetch.mock.calls.length, 0);
  });

  it('restores the session from jwt_token too, retrying a failing start', async () => {
    localStorage.setItem(storageKeys.legacyAuthToken, 'legacy');
    const answers = [json(502, { detail: 'starting' }), json(200, profile)];
    const fetch = vi.fn(async () => answers.shift()!);
    vi.stubGlobal('fetch', fetch);
    const waits: number[] = [];
    mount(waits);
    await screen.findByText('signed in as ada@example.com');
    assert.deepEqual(waits, [500]);
    const [request] = fetch.mock.calls[0] as unknown as [Request];
    assert.equal(new URL(request.url).pathname, '/api/auth/me');
    assert.equal(request.headers.get('Authorization'), 'Bearer legacy');
  });

  it('drops a refused token without retrying', async () => {
    localStorage.setItem(storageKeys.authToken, 'old');
    const fetch = vi.fn(async () => json(401, { detail: 'Not authenticated: token expired' }));
    vi.stubGlobal('fetch', fetch);
    mount();
    await screen.findByText('signed out');
    assert.equal(fetch.mock.calls.length, 1);
    assert.equal(localStorage.getItem(storageKeys.authToken), null);
  });

  it('signs in from a session answer, keeps the balance at 0 or more, and logs out clearing the caches', async () => {
    const fetch = vi.fn(async () => json(200, { message: 'Logged out' }));
    vi.stubGlobal('fetch', fetch);
    const client = mount();
    await screen.findByText('signed out');
    await act(() => auth!.completeSignIn({ access_token: 'fresh', token_type: 'bearer', user: profile }));
    screen.getByText('signed in as ada@example.com');
    assert.equal(localStorage.getItem(storageKeys.authToken), 'fresh');
    act(() => auth!.deductTokens(500));
    assert.equal(auth!.profile?.tokenBalance, 0);
    client.setQueryData(['/api/tokens/balance'], { balance: 1 });
    await act(() => auth!.logout());
    await waitFor(() => screen.getByText('signed out'));
    assert.equal(localStorage.getItem(storageKeys.authToken), null);
    assert.equal(client.getQueryData(['/api/tokens/balance']), undefined);
    const requests = fetch.mock.calls.map((c) => (c as unknown[])[0] as Request);
    const logoutCall = requests.find((r) => new URL(r.url).pathname === '/api/auth/logout');
    assert.equal(logoutCall?.headers.get('Authorization'), 'Bearer fresh');
  });
});
