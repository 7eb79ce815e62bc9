import { z } from 'zod';
import { env, loadConfig, mailEnvSchema } from '@flatlay/platform';

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
      .optional()
      .meta({
        description:
          'billing: Stripe secret key (`sk_…` or `rk_…`); when set, checkouts, subscriptions and the billing portal go to Stripe',
        default:
          'unset (or empty): the local payment provider (checkout and billing portal pages served by the product, no card charged); under `NODE_ENV=production` billing refuses to start without it unless `PAYMENTS_PROVIDER=local`',
      }),
    STRIPE_PUBLISHABLE_KEY: z.string().startsWith('pk_', 'must start with pk_').optional().meta({
      description: 'billing: the publishable key `/api/stripe/config` answers the web app',
      default: "unset: `/api/stripe/config` answers the local provider's `pk_local_…` (with Stripe and no key: 501)",
    }),
    STRIPE_WEBHOOK_SECRET: z.string().min(8).optional().meta({
      description:
        "billing: the signing secret (`whsec_…`) of Stripe's events at `POST /api/webhooks/stripe`; a wrong signature is a 400 that changes nothing",
      default: 'unset: with Stripe, `/api/webhooks/stripe` answers 501 (not configured)',
    }),
    // stripe: STRIPE_SECRET_KEY is required; local: the local provider even with a key;
    // unset: Stripe when the key is set, else the local provider (refused in production).
    PAYMENTS_PROVIDER: z.enum(['stripe', 'local']).optional().meta({
      description:
        "billing: `stripe` (needs the key) or `local`; `local` in production is the operator's explicit choice of the local provider (every checkout completes unpaid) and is logged as a warning at every start",
      default: 'unset: `stripe` with `STRIPE_SECRET_KEY`, else `local` (refused under `NODE_ENV=production`)',
    }),
    // Where the Stripe client sends its calls; unset: Stripe's API. Tests point it at stripe-mock.
    STRIPE_API_URL: env.optionalUrl().meta({
      description: 'billing: where the Stripe client sends its calls (tests point it at stripe-mock)',
      default: "unset: Stripe's API",
    }),
    // The product's public address: checkout return pages and the local provider's pages live there.
    PUBLIC_BASE_URL: z.url().default('http://localhost:8080').meta({
      description:
        "checkout return pages and the local provider's pages are on it, and return addresses a client gives must be on its origin",
      default: '`http://localhost:$PORT` (embedded), `http://localhost:8080` (billing as its own process)',
    }),
    // Other origins a client's return addresses may be on (the product reached at another name:
    // the embedded default lists its loopback names and CORS_ORIGINS); each an http(s) origin.
    RETURN_URL_ORIGINS: env
      .csv()
      .pipe(z.array(z.url({ protocol: /^https?$/, error: 'each must be an http(s) origin' })))
      .transform((urls) => urls.map((u) => new URL(u).origin))
      .optional()
      .meta({
        description:
          "billing: comma-separated http(s) origins, besides `PUBLIC_BASE_URL`'s, that a client's checkout return addresses (`success_url`, `cancel_url`, `return_url`) may be on; any other origin is refused (400)",
        default:
          'unset (embedded: `http://localhost:$PORT`, `http://127.0.0.1:$PORT`, `http://[::1]:$PORT` and the origins in `CORS_ORIGINS`, plus any listed here)',
      }),
    BILLING_CATALOGUE_FILE: z.string().optional().meta({
      description:
        'billing: the catalogue (plans, token packs, the unlock price, promo codes of the local provider), checked at start (docs/decisions/0601-billing.md); in Helm, `--set-file components.billing.files.catalogue\\.json=…` mounts one at `/etc/flatlay/catalogue.json`',
      default: '`services/billing/catalogue.json`',
    }),
    // Signs the local provider's webhook events; unset: a secret generated for the process.
    LOCAL_WEBHOOK_SECRET: z.string().min(16).optional().meta({
      description:
        "billing without Stripe: the secret the local provider signs its Stripe-shaped events with (they take the same webhook path Stripe's do, `POST /api/webhooks/stripe` included)",
      default: 'unset: a secret generated for the process',
    }),
    NODE_ENV: z.string().optional().meta({
      description: '`production` without `STRIPE_SECRET_KEY` is refused unless `PAYMENTS_PROVIDER=local`',
    }),
  })
  // Payment receipts (issue 29): the mail settings identity reads too.
  .extend(mailEnvSchema.shape)
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
