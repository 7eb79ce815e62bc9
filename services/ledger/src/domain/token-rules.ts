/**
 * The token rules of the product in one place: what things cost and what plans grant.
 * Spec: 100 tokens = 1 image, 200 tokens at sign-up, unlock with 100 tokens,
 * Lite 1700 / Studio 4000 tokens a month, yearly Lite 20400 / Studio 48000 tokens.
 * Token pack sizes are not here: billing owns the pack catalogue and each payment
 * carries the number of tokens bought.
 */

export const SIGN_UP_BONUS_TOKENS = 200;
export const IMAGE_ENHANCEMENT_COST = 100;
export const IMAGE_UNLOCK_COST = 100;

export const BILLING_PERIODS = ['monthly', 'yearly'] as const;
export type BillingPeriod = (typeof BILLING_PERIODS)[number];

/** Plans that grant tokens each billing period (see docs/decisions/0201-token-account-rules.md). */
export const TOKEN_PLANS = {
  lite: { name: 'Lite', tokens: { monthly: 1700, yearly: 20400 } },
  studio: { name: 'Studio', tokens: { monthly: 4000, yearly: 48000 } },
} as const satisfies Record<string, { name: string; tokens: Record<BillingPeriod, number> }>;
export type TokenPlan = keyof typeof TOKEN_PLANS;

/** The plan with which spending and unlocking charge nothing (still recorded as usage). */
export const UNLIMITED_PLAN = { id: 'unlimited', name: 'Unlimited' } as const;
export type UnlimitedPlan = typeof UNLIMITED_PLAN.id;

export type PlanId = TokenPlan | UnlimitedPlan;

export function isTokenPlan(plan: string): plan is TokenPlan {
  return Object.hasOwn(TOKEN_PLANS, plan);
}

export function planTokens(plan: TokenPlan, period: BillingPeriod): number {
  return TOKEN_PLANS[plan].tokens[period];
}
