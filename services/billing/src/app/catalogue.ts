// The catalogue as the rest of billing uses it: the products answer, and what a price id or a
// plan key stands for. Built once at start from the validated file.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '@flatlay/platform';
import { catalogueSchema, type CatalogueConfig, type PackConfig, type PlanConfig } from './catalogue-schema.js';
import { displayPrice, perImageCost } from '../domain/money.js';

export type BillingPeriod = 'monthly' | 'yearly';
export const billingPeriods: readonly BillingPeriod[] = ['monthly', 'yearly'];

/** What a checkout sells: a pack (one-off payment) or one period of a plan (subscription). */
export type Product =
  | { kind: 'token_pack'; pack: PackConfig; priceId: string; amount: number }
  | { kind: 'plan'; plan: PlanConfig; period: BillingPeriod; priceId: string; amount: number; tokens: number };

export const defaultCatalogueFile = fileURLToPath(new URL('../../catalogue.json', import.meta.url));

export class Catalogue {
  private readonly byPriceId = new Map<string, Product>();
  /** Operator price ids (SettingsChanged) by plan key, e.g. lite_monthly -> price_123. */
  private overrides = new Map<string, string>();
  /** Price ids an override replaced: new checkouts no longer sell them; webhooks still know them. */
  private replaced = new Set<string>();
  /** Products of override price ids, beside the catalogue's own. */
  private byOverrideId = new Map<string, Product>();

  constructor(readonly config: CatalogueConfig) {
    for (const pack of config.token_packs)
      this.byPriceId.set(pack.price_id, { kind: 'token_pack', pack, priceId: pack.price_id, amount: pack.amount });
    for (const plan of config.subscriptions)
      for (const period of billingPeriods) {
        const price = plan.pricing?.[period];
        if (price)
          this.byPriceId.set(price.price_id, {
            kind: 'plan',
            plan,
            period,
            priceId: price.price_id,
            amount: price.amount,
            tokens: price.tokens,
          });
      }
  }

  /** Validates a parsed catalogue file; every problem is named at once. */
  static parse(input: unknown, source = 'the catalogue'): Catalogue {
    const result = catalogueSchema.safeParse(input);
    if (!result.success)
      throw new ConfigError(result.error.issues.map((i) => `${source}: ${i.path.join('.') || '(root)'}: ${i.message}`));
    return new Catalogue(result.data);
  }

  static load(file = defaultCatalogueFile): Catalogue {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new ConfigError([`BILLING_CATALOGUE_FILE: cannot read ${file} as JSON (${(error as Error).message})`]);
    }
    return Catalogue.parse(json, file);
  }

  get currency(): string {
    return this.config.currency;
  }

  get unlock() {
    return { ...this.config.unlock, currency: this.currency, display_price: displayPrice(this.config.unlock.amount) };
  }

  /**
   * Replaces the price ids of plan periods (key `plan_period`, e.g. lite_monthly) with the
   * operator's, without a restart; keys of plans the catalogue lacks are ignored. Each call
   * states every override in force (an empty map restores the catalogue's ids).
   */
  setPriceOverrides(overrides: ReadonlyMap<string, string>): void {
    const next = new Map<string, string>();
    const byOverrideId = new Map<string, Product>();
    const replaced = new Set<string>();
    for (const [key, priceId] of overrides) {
      const base = this.catalogueProductByPlanKey(key);
      if (base?.kind !== 'plan' || !priceId) continue;
      next.set(key, priceId);
      byOverrideId.set(priceId, { ...base, priceId });
      if (base.priceId !== priceId) replaced.add(base.priceId);
    }
    this.overrides = next;
    this.byOverrideId = byOverrideId;
    this.replaced = replaced;
  }

  /** A price id of something on sale, or undefined (the checkout then answers 'Product not available'). */
  productByPriceId(priceId: string): Product | undefined {
    const product =
      this.byOverrideId.get(priceId) ?? (this.replaced.has(priceId) ? undefined : this.byPriceId.get(priceId));
    if (product?.kind === 'plan' && !product.plan.sold) return undefined;
    return product;
  }

  /** Any configured price, sold or not: webhooks of existing subscriptions still name it. */
  anyProductByPriceId(priceId: string): Product | undefined {
    return this.byOverrideId.get(priceId) ?? this.byPriceId.get(priceId);
  }

  private catalogueProductByPlanKey(key: string): Product | undefined {
    const match = /^([a-z][a-z0-9_]*)_(monthly|yearly)$/.exec(key);
    if (!match) return undefined;
    const price = this.config.subscriptions.find((p) => p.id === match[1])?.pricing?.[match[2] as BillingPeriod];
    return price ? this.byPriceId.get(price.price_id) : undefined;
  }

  /** The price id a plan period sells under now: the operator's override, else the catalogue's. */
  private priceIdOf(planId: string, period: BillingPeriod, catalogueId: string): string {
    return this.overrides.get(`${planId}_${period}`) ?? catalogueId;
  }

  /** A plan key such as studio_monthly, or undefined for an unknown or unsold plan. */
  productByPlanKey(key: string): Product | undefined {
    const match = /^([a-z][a-z0-9_]*)_(monthly|yearly)$/.exec(key);
    if (!match) return undefined;
    const plan = this.config.subscriptions.find((p) => p.id === match[1]);
    const price = plan?.pricing?.[match[2] as BillingPeriod];
    return price
      ? this.productByPriceId(this.priceIdOf(plan!.id, match[2] as BillingPeriod, price.price_id))
      : undefined;
  }

  plan(id: string): PlanConfig | undefined {
    return this.config.subscriptions.find((p) => p.id === id);
  }

  promoCode(code: string) {
    return this.config.promo_codes.find((p) => p.code.toLowerCase() === code.trim().toLowerCase());
  }

  /** The products answer of the pricing pages: sold plans and every pack, in catalogue order. */
  productsAnswer() {
    const currency = this.currency;
    const free = (plan: PlanConfig) => ({
      price_id: null,
      amount: 0,
      currency,
      display_price: displayPrice(0),
      savings: null,
      tokens: plan.tokens_per_month,
    });
    return {
      subscriptions: this.config.subscriptions
        .filter((p) => p.sold)
        .map((plan) => {
          const pricing = plan.pricing;
          return {
            id: plan.id,
            name: plan.name,
            description: plan.description,
            features: plan.features,
            tokens_per_month: plan.tokens_per_month,
            tokens_once: plan.tokens_once,
            unlimited: plan.unlimited,
            pricing: pricing
              ? {
                  monthly: {
                    ...pricing.monthly,
                    price_id: this.priceIdOf(plan.id, 'monthly', pricing.monthly.price_id),
                    currency,
                    display_price: displayPrice(pricing.monthly.amount),
                    savings: null,
                  },
                  // Savings are shown against twelve months of the monthly price.
                  yearly: {
                    ...pricing.yearly,
                    price_id: this.priceIdOf(plan.id, 'yearly', pricing.yearly.price_id),
                    currency,
                    display_price: displayPrice(pricing.yearly.amount),
                    savings: displayPrice(Math.max(0, pricing.monthly.amount * 12 - pricing.yearly.amount)),
                  },
                }
              : { monthly: free(plan), yearly: free(plan) },
          };
        }),
      token_packs: this.config.token_packs.map((pack) => ({
        id: pack.id,
        name: pack.name,
        description: pack.description,
        tokens: pack.tokens,
        amount: pack.amount,
        currency,
        display_price: displayPrice(pack.amount),
        price_id: pack.price_id,
        per_image_cost: perImageCost(pack.amount, pack.tokens),
        product_type: 'payment' as const,
        most_popular: pack.most_popular,
      })),
      unlock: {
        name: this.unlock.name,
        amount: this.unlock.amount,
        currency,
        display_price: this.unlock.display_price,
      },
    };
  }
}
