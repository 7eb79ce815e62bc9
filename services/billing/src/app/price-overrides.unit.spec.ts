import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { planKeyOfSetting } from '../consumers/settings-consumer.js';
import { Catalogue } from './catalogue.js';

describe('operator price ids over the catalogue', () => {
  const catalogue = Catalogue.load();

  it('maps stripe_{plan}_price_id to the monthly price of that plan', () => {
    assert.equal(planKeyOfSetting('stripe_lite_price_id'), 'lite_monthly');
    assert.equal(planKeyOfSetting('stripe_agency_price_id'), 'agency_monthly');
    assert.equal(planKeyOfSetting('stripe_public_key'), undefined);
  });

  it('sells under the override, keeps the old id for webhooks, ignores plans it lacks, and restores', () => {
    catalogue.setPriceOverrides(
      new Map([
        ['lite_monthly', 'price_op_lite'],
        ['pro_monthly', 'price_op_pro'],
      ]),
    );
    assert.equal(catalogue.productByPlanKey('lite_monthly')?.priceId, 'price_op_lite');
    assert.equal(catalogue.productByPriceId('price_op_lite')?.kind, 'plan');
    assert.equal(catalogue.productByPriceId('price_lite_monthly'), undefined);
    assert.equal(catalogue.anyProductByPriceId('price_lite_monthly')?.kind, 'plan');
    assert.equal(catalogue.productByPriceId('price_op_pro'), undefined, 'no pro plan in the catalogue');
    const lite = catalogue.productsAnswer().subscriptions.find((s) => s.id === 'lite')!;
    assert.equal(lite.pricing.monthly.price_id, 'price_op_lite');
    assert.equal(lite.pricing.yearly.price_id, 'price_lite_yearly');
    catalogue.setPriceOverrides(new Map());
    assert.equal(catalogue.productByPlanKey('lite_monthly')?.priceId, 'price_lite_monthly');
  });
});
