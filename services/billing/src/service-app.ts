// Assembles billing from its configuration: the catalogue, the payment provider (Stripe when a
// secret key is set, else the local provider; PAYMENTS_PROVIDER chooses explicitly), checkouts, subscriptions and the webhook handler.
import { randomBytes } from 'node:crypto';
import type { Logger, Pool } from '@flatlay/platform';
import { Checkouts } from './app/checkouts.js';
import { Subscriptions } from './app/subscriptions.js';
import { Webhooks } from './app/webhooks.js';
import { Catalogue } from './app/catalogue.js';
import { paymentProviderOf, type BillingConfig } from './config.js';
import { LocalProvider } from './adapters/local-provider.js';
import type { PaymentProvider } from './adapters/payment-provider.js';
import { StripeProvider } from './adapters/stripe-provider.js';

export interface BillingApp {
  catalogue: Catalogue;
  provider: PaymentProvider;
  localProvider: LocalProvider | undefined;
  checkouts: Checkouts;
  subscriptions: Subscriptions;
  webhooks: Webhooks;
  /**
   * The operator's payment settings from the settings page (SettingsChanged), kept current by
   * PriceOverrides: a saved publishable key is what GET /api/stripe/config answers.
   */
  operatorSettings: { publishableKey: string | undefined };
}

export function createBillingApp(
  pool: Pool,
  logger: Logger,
  config: BillingConfig,
  options: { catalogue?: Catalogue; clock?: () => Date } = {},
): BillingApp {
  const catalogue =
    options.catalogue ??
    (config.BILLING_CATALOGUE_FILE ? Catalogue.load(config.BILLING_CATALOGUE_FILE) : Catalogue.load());
  const localProvider =
    paymentProviderOf(config) === 'stripe'
      ? undefined
      : new LocalProvider({
          pool,
          catalogue,
          publicBaseUrl: config.PUBLIC_BASE_URL,
          webhookSecret: config.LOCAL_WEBHOOK_SECRET ?? `whsec_local_${randomBytes(24).toString('base64url')}`,
          ...(options.clock ? { clock: options.clock } : {}),
        });
  const provider: PaymentProvider =
    localProvider ??
    new StripeProvider({
      secretKey: config.STRIPE_SECRET_KEY!,
      ...(config.STRIPE_PUBLISHABLE_KEY ? { publishableKey: config.STRIPE_PUBLISHABLE_KEY } : {}),
      ...(config.STRIPE_WEBHOOK_SECRET ? { webhookSecret: config.STRIPE_WEBHOOK_SECRET } : {}),
      ...(config.STRIPE_API_URL ? { apiUrl: config.STRIPE_API_URL } : {}),
    });
  const webhooks = new Webhooks(pool, catalogue, () => provider.webhookSecret, logger);
  localProvider?.bindWebhooks((payload, signature) => webhooks.handle(payload, signature));
  return {
    catalogue,
    provider,
    localProvider,
    checkouts: new Checkouts({
      pool,
      catalogue,
      provider,
      publicBaseUrl: config.PUBLIC_BASE_URL,
      returnOrigins: config.RETURN_URL_ORIGINS ?? [],
    }),
    subscriptions: new Subscriptions(pool, provider, config.PUBLIC_BASE_URL),
    webhooks,
    operatorSettings: { publishableKey: undefined },
  };
}
