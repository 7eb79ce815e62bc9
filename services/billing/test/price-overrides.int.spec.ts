// Operator price ids reach billing without a restart: a SettingsChanged on analytics.settings.v1
// (real Kafka) changes what the running service sells, survives a restart (price_overrides), and
// a late, older event changes nothing. The catalogue here has an `agency` plan, so this test's
// price ids cannot touch other runs' catalogues (which have none) reading the same topic.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { call, createLogger } from '@flatlay/platform';
import { waitFor } from '../../platform/test/support.js';
import { Catalogue, defaultCatalogueFile } from '../src/app/catalogue.js';
import { PriceOverrides } from '../src/consumers/settings-consumer.js';
import { readFileSync } from 'node:fs';
import { publishSetting } from './support/settings-events.js';
import { startStack, type Stack } from './support/stack.js';

const base = JSON.parse(readFileSync(defaultCatalogueFile, 'utf8'));
const agency = {
  id: 'agency',
  name: 'Agency',
  description: 'For agencies.',
  features: ['Many tokens'],
  tokens_per_month: 10000,
  pricing: {
    monthly: { price_id: 'price_agency_monthly', amount: 14900, tokens: 10000 },
    yearly: { price_id: 'price_agency_yearly', amount: 143000, tokens: 120000 },
  },
};

describe('billing takes price ids from the operator settings', { timeout: 120_000 }, () => {
  let stack: Stack;
  let catalogue: Catalogue;
  const priceId = `price_agency_${randomUUID().slice(0, 8)}`;

  const publish = (value: string, version: number, cleared = false) =>
    publishSetting(stack.bus, 'stripe_agency_price_id', value, version, cleared);
  const monthly = async () => {
    const products = await call(stack.billing, stack.billing.listProducts, {});
    return products.subscriptions.find((s) => s.id === 'agency')!.pricing!.monthly!.priceId;
  };

  beforeAll(async () => {
    catalogue = Catalogue.parse({ ...base, subscriptions: [...base.subscriptions, agency] });
    stack = await startStack({ billing: { catalogue, priceOverrideRefreshMs: 200 }, withLedger: false });
  }, 120_000);
  afterAll(() => stack?.stop());

  it('sells the plan under the operator price id once SettingsChanged arrives, and knows the old id for webhooks', async () => {
    assert.equal(await monthly(), 'price_agency_monthly');
    const version = Date.now() * 1000;
    await publish(priceId, version);
    await waitFor(async () => (await monthly()) === priceId, 'billing applies the price id', 60_000);
    assert.equal(catalogue.productByPlanKey('agency_monthly')?.priceId, priceId);
    assert.equal(catalogue.productByPriceId(priceId)?.kind, 'plan');
    assert.equal(catalogue.productByPriceId('price_agency_monthly'), undefined, 'new checkouts use the new id');
    assert.equal(
      catalogue.anyProductByPriceId('price_agency_monthly')?.kind,
      'plan',
      'existing subscriptions still resolve',
    );
    assert.equal(
      catalogue.productByPlanKey('agency_yearly')?.priceId,
      'price_agency_yearly',
      'one price per plan: monthly',
    );
    // A restarted (or another) replica reads the same overrides from billing's table.
    const restarted = Catalogue.parse({ ...base, subscriptions: [...base.subscriptions, agency] });
    await new PriceOverrides(stack.billingService.context.pool, restarted, createLogger('test', 'silent')).reload();
    assert.equal(restarted.productByPlanKey('agency_monthly')?.priceId, priceId);

    // A late, older event changes nothing; a newer clear restores the catalogue's id.
    await publish('price_agency_stale', version - 1);
    await publish('', version + 1, true);
    await waitFor(async () => (await monthly()) === 'price_agency_monthly', 'the clear is applied', 60_000);
    const { rows } = await stack.billingService.context.pool.query(
      "SELECT price_id, version FROM price_overrides WHERE setting_key = 'stripe_agency_price_id'",
    );
    assert.deepEqual(rows, [{ price_id: null, version: version + 1 }]);
  });
});
