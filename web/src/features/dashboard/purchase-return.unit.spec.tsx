// @vitest-environment jsdom
import assert from 'node:assert/strict';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, it, vi } from 'vitest';
import { useTokenBalance, useTokenHistory } from '../../api/queries';
import { useAuth } from '../../auth/auth-context';
import { resetToasts } from '../../components/toast/toast-store';
import type { PixelData, PixelEvent } from '../../lib/pixels';
import { rememberCheckout } from '../../lib/purchase-tracking';
import { currentLocation, customer, fakeApi, json, renderPage } from '../../test/fake-api';
import { usePurchaseReturn } from './purchase-return';

const tracked = vi.hoisted(() => [] as [PixelEvent, PixelData | undefined][]);
vi.mock('../../lib/pixels', () => ({ trackPixel: (e: PixelEvent, d?: PixelData) => void tracked.push([e, d]) }));

/** The dashboard's parts under test: the return hook, the balance, the profile and the history. */
function Returned({ tries = 30 }: { tries?: number }) {
  usePurchaseReturn({ intervalMs: 5, tries });
  const balance = useTokenBalance({ enabled: true, onDashboard: true });
  useTokenHistory(true);
  const { profile } = useAuth();
  return (
    <>
      <p data-testid="balance">{balance.data?.balance ?? '…'}</p>
      <p data-testid="profile-balance">{profile?.tokenBalance ?? '…'}</p>
    </>
  );
}

beforeEach(() => {
  tracked.length = 0;
  sessionStorage.clear();
  localStorage.clear();
  localStorage.setItem('auth_token', 'customer-token');
  resetToasts();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('back from a purchase (payment=success)', () => {
  it('asks for the balance again until the credit arrives, then refreshes the profile and the history', async () => {
    // The ledger credits the pack on the fourth read: the first three still answer the old balance.
    let reads = 0;
    const api = fakeApi({
      'GET /api/auth/me': () => json(200, customer({ tokenBalance: reads > 3 ? 1500 : 0 })),
      'GET /api/tokens/balance': () => json(200, { balance: ++reads > 3 ? 1500 : 0 }),
      'GET /api/tokens/': json(200, { balance: 1500, transactions: [] }),
    });
    renderPage(<Returned />, { path: '/dashboard', at: '/dashboard?payment=success' });
    await screen.findByText('Payment Successful');
    await waitFor(() => assert.equal(screen.getByTestId('balance').textContent, '1500'));
    assert.equal(currentLocation(), '/dashboard', 'the query is cleared');
    // Then the profile (which the tiles' unlock buttons read) and the history are asked again.
    await waitFor(() => assert.equal(screen.getByTestId('profile-balance').textContent, '1500'));
    await waitFor(() => assert.equal(api.calls('GET', '/api/tokens/').length, 2));
    // The watch has ended: no read after the one that saw the credit.
    assert.equal(api.calls('GET', '/api/tokens/balance').length, 4);
  });

  it('sends the Purchase pixel once with the price of the pack bought (the amount charged)', async () => {
    fakeApi({
      'GET /api/auth/me': json(200, customer({ tokenBalance: 700 })),
      'GET /api/tokens/balance': json(200, { balance: 700 }),
      'GET /api/tokens/': json(200, { balance: 700, transactions: [] }),
      'GET /api/payments/products': json(200, {
        subscriptions: [],
        token_packs: [{ id: 'main_pack', name: 'Main Pack', price_id: 'price_main', amount: 2400, currency: 'usd' }],
        unlock: { name: 'Unlock', amount: 500, currency: 'usd' },
      }),
    });
    rememberCheckout({ priceId: 'price_main' });
    renderPage(<Returned tries={1} />, { path: '/dashboard', at: '/dashboard?payment=success' });
    await screen.findByText('Payment Successful');
    await waitFor(() =>
      assert.deepEqual(tracked, [['Purchase', { value: 24, currency: 'USD', content_name: 'Main Pack' }]]),
    );
  });

  it('stops after its tries when the balance never moves', async () => {
    const api = fakeApi({
      'GET /api/auth/me': json(200, customer({ tokenBalance: 700 })),
      'GET /api/tokens/balance': json(200, { balance: 700 }),
      'GET /api/tokens/': json(200, { balance: 700, transactions: [] }),
    });
    renderPage(<Returned tries={4} />, { path: '/dashboard', at: '/dashboard?payment=success' });
    // The history is asked again when the watch gives up, after its fourth read.
    await waitFor(() => assert.equal(api.calls('GET', '/api/tokens/').length, 2));
    const watched = api.calls('GET', '/api/tokens/balance').length;
    assert.ok(watched >= 4 && watched <= 5, `${watched} balance reads: the page's own and the watch's four`);
    assert.equal(screen.getByTestId('balance').textContent, '700');
  });

  it("leaves a guest's return (enhancement_id) and other visits alone", async () => {
    const api = fakeApi({
      'GET /api/auth/me': json(200, customer()),
      'GET /api/tokens/balance': json(200, { balance: 1200 }),
      'GET /api/tokens/': json(200, { balance: 1200, transactions: [] }),
    });
    renderPage(<Returned />, { path: '/dashboard', at: '/dashboard?payment=success&enhancement_id=e1' });
    await waitFor(() => assert.equal(screen.getByTestId('balance').textContent, '1200'));
    assert.equal(currentLocation(), '/dashboard?payment=success&enhancement_id=e1');
    assert.equal(screen.queryByText('Payment Successful'), null);
    assert.equal(api.calls('GET', '/api/tokens/balance').length, 1);
    assert.equal(api.calls('GET', '/api/tokens/').length, 1);
  });
});
