import { z } from 'zod';
import { env, loadConfig } from '@flatlay/platform';

/**
 * Billing's settings. The payment provider: Stripe with STRIPE_SECRET_KEY; without it the local
 * provider, which plays Stripe's part inside the product (the embedded default) and whose Pay button
 * completes any checkout. So under NODE_ENV=production a missing key is refused unless the operator
 * chose the local provider explicitly (PAYMENTS_PROVIDER=local): free purchases are never the result
 * of an omission.
 */
export const billingEnvSchema = z
  .object({
    // An empty value (`STRIPE_SECRET_KEY=`, a Secret with an empty key) counts as unset (loadConfig).
    STRIPE_SECRET_KEY: z
      .string()
      .regex(/^(sk|rk)_/, 'must start with sk_ or rk_')
      .optional(),
    STRIPE_PUBLISHABLE_KEY: z.string().startsWith('pk_', 'must start with pk_').optional(),
    STRIPE_WEBHOOK_SECRET: z.string().min(8).optional(),
    // stripe: STRIPE_SECRET_KEY is required; local: the local provider even with a key;
    // unset: Stripe when the key is set, else the local provider (refused in production).
    PAYMENTS_PROVIDER: z.enum(['stripe', 'local']).optional(),
    // Where the Stripe client sends its calls; unset: Stripe's API. Tests point it at stripe-mock.
    STRIPE_API_URL: env.optionalUrl(),
    // The product's public address: checkout return pages and the local provider's pages live there.
    PUBLIC_BASE_URL: z.url().default('http://localhost:8080'),
    // Other origins a client's return addresses may be on (the product reached at another name:
    // the embedded default lists its loopback names and CORS_ORIGINS); each an http(s) origin.
    RETURN_URL_ORIGINS: env
      .csv()
      .pipe(z.array(z.url({ protocol: /^https?$/, error: 'each must be an http(s) origin' })))
      .transform((urls) => urls.map((u) => new URL(u).origin))
      .optional(),
    BILLING_CATALOGUE_FILE: z.string().optional(),
    // Signs the local provider's webhook events; unset: a secret generated for the process.
    LOCAL_WEBHOOK_SECRET: z.string().min(16).optional(),
    NODE_ENV: z.string().optional(),
  })
  .refine((v) => v.PAYMENTS_PROVIDER !== 'stripe' || Boolean(v.STRIPE_SECRET_KEY), {
    message: 'PAYMENTS_PROVIDER=stripe needs STRIPE_SECRET_KEY',
    path: ['STRIPE_SECRET_KEY'],
  })
  .refine((v) => v.NODE_ENV !== 'production' || Boolean(v.STRIPE_SECRET_KEY) || v.PAYMENTS_PROVIDER === 'local', {
    message:
      'set STRIPE_SECRET_KEY in production; without it every checkout would complete unpaid (the local provider). ' +
      'To run the local provider on purpose, set PAYMENTS_PROVIDER=local',
    path: ['STRIPE_SECRET_KEY'],
  });
export type BillingConfig = z.infer<typeof billingEnvSchema>;

/** The payment provider the settings choose. */
export function paymentProviderOf(config: BillingConfig): 'stripe' | 'local' {
  return config.PAYMENTS_PROVIDER ?? (config.STRIPE_SECRET_KEY ? 'stripe' : 'local');
}

export function loadBillingConfig(
  overrides: Partial<Record<keyof BillingConfig, string>> = {},
  environment: NodeJS.ProcessEnv = process.env,
): BillingConfig {
  return loadConfig(billingEnvSchema, { ...environment, ...overrides });
}
