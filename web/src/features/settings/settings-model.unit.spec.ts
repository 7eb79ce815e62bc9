import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { keysOf } from './settings-model';

describe('keysOf', () => {
  it('offers the price ids the server lists (the plans it sells), and the publishable key always', () => {
    const config = { openai_api_key: '', stripe_public_key: '', stripe_lite_price_id: '', stripe_studio_price_id: '' };
    assert.deepEqual(keysOf(config, new Map()).paymentKeys, [
      'stripe_public_key',
      'stripe_lite_price_id',
      'stripe_studio_price_id',
    ]);
    assert.deepEqual(keysOf({}, new Map([['stripe_agency_price_id', 'inactive']])).paymentKeys, [
      'stripe_public_key',
      'stripe_agency_price_id',
    ]);
  });
});
