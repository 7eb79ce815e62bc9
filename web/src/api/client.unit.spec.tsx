// @vitest-environment jsdom
import assert from 'node:assert/strict';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, it, vi } from 'vitest';
import { OutageReset } from '../app/OutageReset';
import { AuthProvider } from '../auth/AuthProvider';
import { storageKeys } from '../lib/storage';
import { fetchBalance, fetchProducts, fetchTokenHistory, login, logoutWith } from './endpoints';
import { ApiError, setOutageHandler, setUnauthorizedHandler } from './http';
import { createQueryClient } from './queries';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** Stubs fetch with one answer per call and records what the client sent. */
function answer(...answers: Response[]) {
  const sent: Request[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    sent.push(input instanceof Request ? input : new Request(new URL(String(input), location.href), init));
    return answers.shift() ?? json(500, { detail: 'no answer left' });
  });
  vi.stubGlobal('fetch', fetch);
  return sent;
}

beforeEach(() => localStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setOutageHandler(null);
  setUnauthorizedHandler(null);
});

describe('the typed client', () => {
  it('sends the stored bearer token (auth_token, else jwt_token), the cookie and Accept', async () => {
    localStorage.setItem(storageKeys.legacyAuthToken, 'legacy');
    const sent = answer(json(200, { balance: 7 }), json(200, { balance: 200, transactions: [] }));
    assert.deepEqual(await fetchBalance(), { balance: 7 });
    localStorage.setItem(storageKeys.authToken, 'current');
    assert.deepEqual(await fetchTokenHistory(), { balance: 200, transactions: [] });
    const [balance, history] = sent;
    assert.equal(new URL(balance!.url).pathname, '/api/tokens/balance');
    assert.equal(balance!.headers.get('Authorization'), 'Bearer legacy');
    assert.equal(balance!.headers.get('Accept'), 'application/json');
    assert.equal(balance!.credentials, 'include');
    assert.equal(new URL(history!.url).pathname, '/api/tokens/');
    assert.equal(history!.headers.get('Authorization'), 'Bearer current');
  });

  it('sends no stored token on sign-in, and a 401 there is a wrong password, not a dead session', async () => {
    localStorage.setItem(storageKeys.authToken, 'stale');
    const unauthorized = vi.fn();
    setUnauthorizedHandler(unauthorized);
    const sent = answer(json(401, { detail: 'Invalid email or password', code: 'UNAUTHENTICATED' }));
    const failure = await login({ email: 'ada@example.com', password: 'nope' }).catch((e: unknown) => e);
    assert.ok(failure instanceof ApiError);
    assert.deepEqual([failure.status, failure.message], [401, 'Invalid email or password']);
    assert.equal(sent[0]!.headers.get('Authorization'), null);
    assert.equal(await sent[0]!.json().then((b: { email: string }) => b.email), 'ada@example.com');
    assert.equal(unauthorized.mock.calls.length, 0);
  });

  it('signs out locally on a 401 to a call that carried our token; logout sends the token it ends', async () => {
    localStorage.setItem(storageKeys.authToken, 'dead');
    const unauthorized = vi.fn();
    setUnauthorizedHandler(unauthorized);
    const sent = answer(json(401, { detail: 'Not authenticated' }), json(200, { message: 'Logged out' }));
    await assert.rejects(fetchBalance(), (e) => e instanceof ApiError && e.status === 401);
    assert.deepEqual(unauthorized.mock.calls, [[401]]);
    assert.deepEqual(await logoutWith('ending'), { message: 'Logged out' });
    assert.equal(sent[1]!.headers.get('Authorization'), 'Bearer ending');
  });

  it('reports 503 and 504 as outages, on the typed path and the raw one alike', async () => {
    localStorage.setItem(storageKeys.authToken, 't');
    const outage = vi.fn();
    setOutageHandler(outage);
    const sent = answer(json(503, { detail: 'Service unavailable' }), new Response('', { status: 504 }));
    await assert.rejects(fetchBalance(), (e) => e instanceof ApiError && e.message === 'Service unavailable');
    await assert.rejects(fetchProducts(), (e) => e instanceof ApiError && e.message === 'HTTP 504');
    assert.deepEqual(outage.mock.calls, [[503], [504]]);
    assert.equal(sent[1]!.headers.get('Authorization'), null);
  });

  it('a 503 resets the app: storage cleared, signed out, at /auth', async () => {
    const client = createQueryClient();
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={['/dashboard']}>
          <AuthProvider wait={async () => undefined}>
            <OutageReset />
            <Routes>
              <Route path="/auth" element={<p>auth page</p>} />
              <Route path="*" element={<p>dashboard</p>} />
            </Routes>
          </AuthProvider>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await screen.findByText('dashboard');
    localStorage.setItem(storageKeys.authToken, 'kept');
    localStorage.setItem(storageKeys.enhancementType, 'tops');
    client.setQueryData(['/api/tokens/balance'], { balance: 3 });
    answer(json(503, { detail: 'Service unavailable' }));
    await act(() => fetchBalance().catch(() => undefined));
    await screen.findByText('auth page');
    assert.equal(localStorage.length, 0);
    assert.equal(client.getQueryData(['/api/tokens/balance']), undefined);
  });

  it('rejects an ok answer that is not JSON', async () => {
    answer(new Response('<html>', { status: 200, headers: { 'Content-Type': 'text/html' } }));
    await assert.rejects(fetchBalance(), (e) => e instanceof ApiError && e.message === 'Unexpected server response');
  });
});
