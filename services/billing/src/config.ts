import { z } from 'zod';
import { env, loadConfig } from '@flatlay/platform';

/**
 * Billing's settings. Without STRIPE_SECRET_KEY billing runs the local payment provider, which
 * plays Stripe's part inside the product (the embedded default); with it, Stripe.
 */
export const billingEnvSchema = z.object({
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_/, 'must start with sk_ or rk_')
    .optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().startsWith('pk_', 'must start with pk_').optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(8).optional(),
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
});
export type BillingConfig = z.infer<typeof billingEnvSchema>;

export function loadBillingConfig(
  overrides: Partial<Record<keyof BillingConfig, string>> = {},
  environment: NodeJS.ProcessEnv = process.env,
): BillingConfig {
  return loadConfig(billingEnvSchema, { ...environment, ...overrides });
}
