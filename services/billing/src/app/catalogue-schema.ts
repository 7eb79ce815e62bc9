// The shape of the catalogue file: what Flatlay sells and for how much. Validated at start, so a
// deployment with a broken catalogue stops with the problem named instead of selling the wrong thing.
import { z } from 'zod';

const cents = z.number().int().positive();
const id = z.string().regex(/^[a-z][a-z0-9_]*$/, 'lower-case letters, digits and _');
const priceId = z.string().min(1);

const planPrice = z.object({ price_id: priceId, amount: cents, tokens: z.number().int().nonnegative() });

export const planSchema = z
  .object({
    id,
    name: z.string().min(1),
    description: z.string(),
    features: z.array(z.string()),
    tokens_per_month: z.number().int().nonnegative(),
    // The free plan's tokens come once, at sign-up, not every month.
    tokens_once: z.boolean().default(false),
    // Spends and unlocks charge nothing while the plan runs.
    unlimited: z.boolean().default(false),
    // A plan may be configured (for subscribers who already hold it) but not offered.
    sold: z.boolean().default(true),
    pricing: z.object({ monthly: planPrice, yearly: planPrice }).optional(),
  })
  .refine((p) => !p.unlimited || (p.tokens_per_month === 0 && p.pricing?.monthly.tokens === 0), {
    message: 'an unlimited plan grants no tokens',
  });

export const packSchema = z.object({
  id,
  name: z.string().min(1),
  description: z.string(),
  tokens: z.number().int().positive(),
  amount: cents,
  price_id: priceId,
  most_popular: z.boolean().default(false),
});

export const promoCodeSchema = z.object({
  code: z.string().min(1),
  percent_off: z.number().int().min(1).max(100),
});

export const catalogueSchema = z
  .object({
    currency: z.literal('usd'),
    // One price for every one-off unlock (a signed-in user's locked result or a guest's enhancement).
    unlock: z.object({ name: z.string().min(1), amount: cents }),
    subscriptions: z.array(planSchema).min(1),
    token_packs: z.array(packSchema),
    // Codes the local payment provider accepts; with Stripe, Stripe's promotion codes apply.
    promo_codes: z.array(promoCodeSchema).default([]),
  })
  .superRefine((c, ctx) => {
    const ids = [...c.subscriptions.map((p) => p.id), ...c.token_packs.map((p) => p.id)];
    for (const dup of ids.filter((x, i) => ids.indexOf(x) !== i))
      ctx.addIssue({ code: 'custom', message: `id ${dup} is used twice` });
    const prices = [
      ...c.subscriptions.flatMap((p) => (p.pricing ? [p.pricing.monthly.price_id, p.pricing.yearly.price_id] : [])),
      ...c.token_packs.map((p) => p.price_id),
    ];
    for (const dup of prices.filter((x, i) => prices.indexOf(x) !== i))
      ctx.addIssue({ code: 'custom', message: `price_id ${dup} is used twice` });
    for (const p of c.subscriptions)
      if (p.sold && !p.tokens_once && !p.pricing)
        ctx.addIssue({ code: 'custom', message: `plan ${p.id} is sold but has no pricing` });
  });

export type CatalogueFile = z.input<typeof catalogueSchema>;
export type CatalogueConfig = z.output<typeof catalogueSchema>;
export type PlanConfig = z.output<typeof planSchema>;
export type PackConfig = z.output<typeof packSchema>;
