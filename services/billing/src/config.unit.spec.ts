import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { loadBillingConfig, paymentProviderOf } from './config.js';

const load = (env: Record<string, string>) => loadBillingConfig({}, env);

describe('billing settings: the payment provider', () => {
  it('refuses production without a Stripe secret key, and an empty key counts as none', () => {
    assert.throws(() => load({ NODE_ENV: 'production' }), /STRIPE_SECRET_KEY/);
    assert.throws(() => load({ NODE_ENV: 'production', STRIPE_SECRET_KEY: '' }), /STRIPE_SECRET_KEY/);
    assert.throws(() => load({ NODE_ENV: 'production', PAYMENTS_PROVIDER: 'stripe' }), /STRIPE_SECRET_KEY/);
  });

  it('runs the local provider in production only when chosen explicitly', () => {
    const config = load({ NODE_ENV: 'production', PAYMENTS_PROVIDER: 'local', STRIPE_SECRET_KEY: '' });
    assert.equal(paymentProviderOf(config), 'local');
  });

  it('chooses Stripe with a key, and the local provider without one outside production', () => {
    assert.equal(paymentProviderOf(load({ NODE_ENV: 'production', STRIPE_SECRET_KEY: 'sk_test_x' })), 'stripe');
    assert.equal(paymentProviderOf(load({ STRIPE_SECRET_KEY: '' })), 'local');
    assert.equal(paymentProviderOf(load({ NODE_ENV: 'development' })), 'local');
    // The explicit choice wins over a key that is set.
    assert.equal(paymentProviderOf(load({ STRIPE_SECRET_KEY: 'sk_test_x', PAYMENTS_PROVIDER: 'local' })), 'local');
  });

  it('refuses an unknown provider and PAYMENTS_PROVIDER=stripe without a key anywhere', () => {
    assert.throws(() => load({ PAYMENTS_PROVIDER: 'paypal' }), /PAYMENTS_PROVIDER/);
    assert.throws(() => load({ PAYMENTS_PROVIDER: 'stripe', STRIPE_SECRET_KEY: '' }), /STRIPE_SECRET_KEY/);
  });
});
