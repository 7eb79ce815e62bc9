import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'vitest';
import { ConfigError } from '@flatlay/platform';
import { Catalogue, defaultCatalogueFile } from './catalogue.js';

const file = () => JSON.parse(readFileSync(defaultCatalogueFile, 'utf8'));

describe('the catalogue', () => {
  const catalogue = Catalogue.load();
  const answer = catalogue.productsAnswer();

  it('sells the spec plans at their prices and tokens, yearly 20% off with savings against twelve months', () => {
    const plan = (id: string) => answer.subscriptions.find((s) => s.id === id)!;
    assert.deepEqual(
      ['lite', 'studio'].map((id) => {
        const p = plan(id).pricing;
        return [
          p.monthly.amount,
          p.monthly.tokens,
          p.monthly.display_price,
          p.yearly.amount,
          p.yearly.tokens,
          p.yearly.display_price,
          p.yearly.savings,
        ];
      }),
      [
        [2400, 1700, '$24', 23040, 20400, '$230.40', '$57.60'],
        [4000, 4000, '$40', 38400, 48000, '$384', '$96'],
      ],
    );
    for (const id of ['lite', 'studio']) {
      const p = plan(id).pricing;
      assert.equal(p.yearly.amount, Math.round(p.monthly.amount * 12 * 0.8));
      assert.equal(p.monthly.currency, 'usd');
      assert.equal(p.monthly.savings, null);
    }
  });

  it('answers the free plan as a well-formed entry without a price id', () => {
    const free = answer.subscriptions.find((s) => s.id === 'free')!;
    assert.equal(free.tokens_per_month, 200);
    assert.equal(free.tokens_once, true);
    assert.equal(free.pricing.monthly.price_id, null);
    assert.equal(free.pricing.monthly.amount, 0);
  });

  it('answers token packs with per-image cost, payment type and main_pack as most popular', () => {
    const main = answer.token_packs.find((p) => p.id === 'main_pack')!;
    assert.deepEqual(
      { ...main },
      {
        id: 'main_pack',
        name: 'Main',
        description: main.description,
        tokens: 1500,
        amount: 2400,
        currency: 'usd',
        display_price: '$24',
        price_id: 'price_main_pack',
        per_image_cost: 1.6,
        product_type: 'payment',
        most_popular: true,
      },
    );
    assert.deepEqual(answer.unlock, { name: 'Image unlock', amount: 500, currency: 'usd', display_price: '$5' });
  });

  it('finds products by price id and plan key; unknown ones are undefined', () => {
    assert.equal(catalogue.productByPriceId('price_main_pack')?.kind, 'token_pack');
    const studio = catalogue.productByPlanKey('studio_yearly');
    assert.ok(studio?.kind === 'plan' && studio.period === 'yearly' && studio.tokens === 48000);
    for (const key of ['lite_monthly', 'lite_yearly', 'studio_monthly'])
      assert.ok(catalogue.productByPlanKey(key), key);
    assert.equal(catalogue.productByPlanKey('free_monthly'), undefined);
    assert.equal(catalogue.productByPlanKey('studio'), undefined);
    assert.equal(catalogue.productByPriceId('price_nope'), undefined);
  });

  it('supports an unlimited plan that is configured but not sold', () => {
    const withUnlimited = Catalogue.parse({
      ...file(),
      subscriptions: [
        ...file().subscriptions,
        {
          id: 'unlimited',
          name: 'Unlimited',
          description: 'No token counting.',
          features: [],
          tokens_per_month: 0,
          unlimited: true,
          sold: false,
          pricing: {
            monthly: { price_id: 'price_unlimited_monthly', amount: 14900, tokens: 0 },
            yearly: { price_id: 'price_unlimited_yearly', amount: 143040, tokens: 0 },
          },
        },
      ],
    });
    assert.equal(withUnlimited.productByPlanKey('unlimited_monthly'), undefined, 'not for sale');
    assert.equal(withUnlimited.anyProductByPriceId('price_unlimited_monthly')?.kind, 'plan', 'known to webhooks');
    assert.ok(!withUnlimited.productsAnswer().subscriptions.some((s) => s.id === 'unlimited'));
  });

  it('refuses a broken catalogue, naming every problem', () => {
    const broken = file();
    broken.token_packs[1].price_id = broken.token_packs[0].price_id;
    broken.token_packs[2].amount = -1;
    assert.throws(
      () => Catalogue.parse(broken),
      (e: ConfigError) => e.problems.length === 2 && e.problems.some((p) => /used twice/.test(p)),
    );
    assert.throws(() => Catalogue.load('/nonexistent/catalogue.json'), ConfigError);
  });
});
