// The publishable key saved on the settings page is what GET /api/stripe/config answers: a
// SettingsChanged for stripe_public_key (real Kafka) reaches the running billing service, a
// restart keeps it (price_overrides), and a clear brings back the environment's key.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { call, createLogger } from '@flatlay/platform';
import { waitFor } from '../../platform/test/support.js';
import { Catalogue } from '../src/app/catalogue.js';
import { PriceOverrides } from '../src/consumers/settings-consumer.js';
import { publishSetting } from './support/settings-events.js';
import { startStack, type Stack } from './support/stack.js';

describe('billing answers the operator publishable key', () => {
  let stack: Stack;
  const saved = `pk_test_${randomUUID().replaceAll('-', '')}`;

  const publish = (value: string, version: number, cleared = false) =>
    publishSetting(stack.bus, 'stripe_public_key', value, version, cleared);
  const publishableKey = async () => (await call(stack.billing, stack.billing.getStripeConfig, {})).publishableKey;

  beforeAll(async () => {
    stack = await startStack({ billing: { priceOverrideRefreshMs: 200 }, withLedger: false });
  });
  afterAll(() => stack?.stop());

  it('answers the saved key once SettingsChanged arrives, keeps it over a restart, and the environment key after a clear', async () => {
    const before = await publishableKey();
    assert.notEqual(before, saved);
    const version = Date.now() * 1000;
    await publish(saved, version);
    await waitFor(async () => (await publishableKey()) === saved, 'billing answers the saved key', 60_000);

    // Another replica (or a restart) reads it from billing's table.
    const settings = { publishableKey: undefined as string | undefined };
    await new PriceOverrides(
      stack.billingService.context.pool,
      Catalogue.load(),
      createLogger('test', 'silent'),
      settings,
    ).reload();
    assert.equal(settings.publishableKey, saved);

    await publish('', version + 1, true);
    await waitFor(async () => (await publishableKey()) === before, 'the clear brings back the environment key', 60_000);
  });
});
