import { fileURLToPath } from 'node:url';
import { registry, serviceTopics, startMail, type ServiceContext, type ServiceDefinition } from '@flatlay/platform';
import { receiptMailRenderer } from './app/receipt-mail.js';
import { createBillingApp, type BillingApp } from './service-app.js';
import type { Catalogue } from './app/catalogue.js';
import { loadBillingConfig, type BillingConfig } from './config.js';
import { PriceOverrides, settingsTopic } from './consumers/settings-consumer.js';
import { consumedTopics, userEventHandler } from './consumers/user-consumer.js';
import { billingGrpcService } from './grpc/billing-grpc.js';

export interface BillingOverrides {
  /** Settings that win over the environment (tests, the embedded default). */
  env?: Partial<Record<keyof BillingConfig, string>>;
  catalogue?: Catalogue;
  clock?: () => Date;
  /** Another consumer group (tests sharing one Kafka run their own). */
  consumerGroup?: string;
  /** How often a replica rereads the operator's price ids (another replica may have consumed the change). */
  priceOverrideRefreshMs?: number;
}

export function createBillingService(overrides: BillingOverrides = {}): ServiceDefinition {
  // One BillingApp per service context: built in start(), which runs before grpc().
  const apps = new WeakMap<ServiceContext, BillingApp>();
  const appOf = (ctx: ServiceContext) => () => {
    const app = apps.get(ctx);
    if (!app) throw new Error('billing: start() must run before grpc()');
    return app;
  };
  return {
    name: 'billing',
    // Migrations are SQL files; they are read from src/ in both the source and the built layout.
    migrationsDir: fileURLToPath(new URL('../src/db/migrations', import.meta.url)),
    topics: serviceTopics('billing'),
    grpc: (ctx) => [billingGrpcService(ctx, appOf(ctx))],
    async start(ctx) {
      const config = loadBillingConfig(overrides.env);
      apps.set(
        ctx,
        createBillingApp(ctx.pool, ctx.logger, config, {
          ...(overrides.catalogue ? { catalogue: overrides.catalogue } : {}),
          ...(overrides.clock ? { clock: overrides.clock } : {}),
        }),
      );
      const provider = apps.get(ctx)!.provider.name;
      if (provider === 'local' && config.NODE_ENV === 'production')
        // Said at every start: the explicit choice (PAYMENTS_PROVIDER=local) stays visible in the logs.
        ctx.logger.warn(
          { provider },
          'billing runs the LOCAL payment provider in production (PAYMENTS_PROVIDER=local): every checkout completes without a charge',
        );
      else ctx.logger.info({ provider }, 'billing payment provider');
      const prices = new PriceOverrides(
        ctx.pool,
        apps.get(ctx)!.catalogue,
        ctx.logger,
        apps.get(ctx)!.operatorSettings,
      );
      await prices.reload();
      const users = userEventHandler(ctx.pool, ctx.logger, apps.get(ctx)!.subscriptions);
      const settings = prices.handler();
      const subscription = await ctx.bus.subscribe({
        groupId: overrides.consumerGroup ?? registry.billing.consumes!.group,
        topics: [...consumedTopics, settingsTopic],
        handle: (delivery) => (delivery.topic === settingsTopic ? settings(delivery) : users(delivery)),
        logger: ctx.logger,
      });
      const stopFollowing = prices.follow(overrides.priceOverrideRefreshMs ?? 5_000);
      // Receipts leave through billing's mail outbox (identity's mail settings and relay, ADR 0402).
      const stopMail = startMail({
        settings: config,
        pool: ctx.pool,
        logger: ctx.logger,
        render: receiptMailRenderer(config.PUBLIC_BASE_URL),
        what: 'payment receipts and paid-result links',
      });
      return [() => subscription.close(), stopFollowing, stopMail];
    },
  };
}

export const billingService: ServiceDefinition = createBillingService();
