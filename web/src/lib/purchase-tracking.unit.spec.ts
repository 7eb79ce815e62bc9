// @vitest-environment jsdom
import assert from 'node:assert/strict';
import { beforeEach, describe, it, vi } from 'vitest';
import type { PixelData, PixelEvent } from './pixels';
import {
  type Catalogue,
  purchaseOf,
  rememberCheckout,
  trackCheckoutReturn,
  trackGuestUnlock,
} from './purchase-tracking';

const sent = vi.hoisted(() => [] as [PixelEvent, PixelData | undefined][]);
vi.mock('./pixels', () => ({ trackPixel: (e: PixelEvent, d?: PixelData) => void sent.push([e, d]) }));

const price = (price_id: string | null, amount: number) => ({ price_id, amount, currency: 'usd' });
const catalogue: Catalogue = {
  subscriptions: [
    { id: 'lite', name: 'Lite', pricing: { monthly: price('price_lm', 2400), yearly: price('price_ly', 23040) } },
    { id: 'studio', name: 'Studio', pricing: { monthly: price('price_sm', 4000), yearly: price(null, 38400) } },
  ],
  token_packs: [{ name: 'Main Pack', price_id: 'price_main', amount: 1999, currency: 'usd' }],
  unlock: { name: 'Image unlock', amount: 500, currency: 'usd' },
};
const answer = async () => catalogue;

beforeEach(() => {
  sent.length = 0;
  sessionStorage.clear();
  localStorage.clear();
});

describe('the Purchase pixel with the amount charged', () => {
  it("finds a checkout's price in the catalogue: a pack, a plan by price id, a plan by key", () => {
    assert.deepEqual(purchaseOf(catalogue, { priceId: 'price_main' }), {
      value: 19.99,
      currency: 'USD',
      content_name: 'Main Pack',
    });
    assert.deepEqual(purchaseOf(catalogue, { priceId: 'price_ly' }), {
      value: 230.4,
      currency: 'USD',
      content_name: 'Lite',
    });
    assert.deepEqual(purchaseOf(catalogue, { plan: 'studio', period: 'yearly' }), {
      value: 384,
      currency: 'USD',
      content_name: 'Studio',
    });
    assert.equal(purchaseOf(catalogue, { priceId: 'price_gone' }), null);
    assert.equal(purchaseOf(catalogue, { plan: 'agency', period: 'monthly' }), null);
  });

  it('fires once on the return from a remembered checkout, and not at all without one', async () => {
    await trackCheckoutReturn(answer);
    assert.deepEqual(sent, [], 'a return with nothing remembered (another tab, a reload) sends nothing');
    rememberCheckout({ plan: 'lite', period: 'monthly' });
    await trackCheckoutReturn(answer);
    await trackCheckoutReturn(answer);
    assert.deepEqual(sent, [['Purchase', { value: 24, currency: 'USD', content_name: 'Lite' }]]);
  });

  it('sends nothing rather than a guessed amount when the catalogue does not answer', async () => {
    rememberCheckout({ priceId: 'price_main' });
    await trackCheckoutReturn(async () => {
      throw new Error('offline');
    });
    assert.deepEqual(sent, []);
  });

  it("a guest's unlock: the unlock's price, once per try (the paid result's link opens it again)", async () => {
    await trackGuestUnlock('try-1', answer);
    await trackGuestUnlock('try-1', answer);
    await trackGuestUnlock('try-2', answer);
    assert.deepEqual(sent, [
      ['Purchase', { value: 5, currency: 'USD', content_name: 'anonymous_unlock' }],
      ['Purchase', { value: 5, currency: 'USD', content_name: 'anonymous_unlock' }],
    ]);
  });
});
