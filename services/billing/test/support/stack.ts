// Billing and the ledger on the real PostgreSQL and Kafka, each in databases and consumer groups of
// its own, so runs never share rows or partitions with other runs.
import { randomUUID } from 'node:crypto';
import { billing, ledger } from '@flatlay/proto';
import {
  createClient,
  createLogger,
  KafkaBus,
  serviceCredential,
  startService,
  type RunningService,
  type ServiceContext,
  type ServiceDefinition,
} from '@flatlay/platform';
import { ledgerService } from '@flatlay/ledger';
import { TokenAccounts } from '../../../ledger/src/app/token-accounts.js';
import { consumedTopics, ledgerEventHandler } from '../../../ledger/src/consumers/ledger-consumers.js';
import { ledgerGrpcService } from '../../../ledger/src/grpc/ledger-grpc.js';
import { requireEnv } from '../../../platform/test/support.js';
import { createBillingService, type BillingOverrides } from '../../src/service.js';

export interface Stack {
  bus: KafkaBus;
  billingService: RunningService;
  billing: billing.BillingServiceClient;
  ledgerService?: RunningService;
  ledger?: ledger.LedgerServiceClient;
  stop(): Promise<void>;
}

function isolatedLedger(group: string): ServiceDefinition {
  const accountsOf = new WeakMap<ServiceContext, TokenAccounts>();
  const accounts = (ctx: ServiceContext) => {
    if (!accountsOf.has(ctx)) accountsOf.set(ctx, new TokenAccounts(ctx.pool));
    return accountsOf.get(ctx)!;
  };
  return {
    ...ledgerService,
    grpc: (ctx) => [ledgerGrpcService(ctx, accounts(ctx))],
    async start(ctx) {
      const subscription = await ctx.bus.subscribe({
        groupId: group,
        topics: consumedTopics,
        handle: ledgerEventHandler(ctx.pool, accounts(ctx), ctx.logger),
      });
      return [() => subscription.close()];
    },
  };
}

export async function startStack(options: { billing: BillingOverrides; withLedger: boolean }): Promise<Stack> {
  const run = randomUUID().replaceAll('-', '').slice(0, 10);
  const databaseUrl = requireEnv('DATABASE_URL');
  const bus = new KafkaBus({ brokers: requireEnv('KAFKA_BROKERS').split(','), clientId: `billing-test-${run}` });
  const billingService = await startService(
    createBillingService({ consumerGroup: `billing-${run}`, ...options.billing }),
    {
      databaseUrl,
      database: `flatlay_billing_test_${run}`,
      bus,
      grpcPort: 0,
      logger: createLogger('billing', 'silent'),
    },
  );
  const billingClient = createClient(
    billing.BillingServiceClient,
    `127.0.0.1:${billingService.port}`,
    serviceCredential('gateway'),
  );
  let ledgerRunning: RunningService | undefined;
  let ledgerClient: ledger.LedgerServiceClient | undefined;
  if (options.withLedger) {
    ledgerRunning = await startService(isolatedLedger(`ledger-${run}`), {
      databaseUrl,
      database: `flatlay_ledger_test_${run}`,
      bus,
      grpcPort: 0,
      logger: createLogger('ledger', 'silent'),
    });
    ledgerClient = createClient(
      ledger.LedgerServiceClient,
      `127.0.0.1:${ledgerRunning.port}`,
      serviceCredential('gateway'),
    );
  }
  return {
    bus,
    billingService,
    billing: billingClient,
    ...(ledgerRunning ? { ledgerService: ledgerRunning } : {}),
    ...(ledgerClient ? { ledger: ledgerClient } : {}),
    async stop() {
      billingClient.close();
      ledgerClient?.close();
      await ledgerRunning?.stop();
      await billingService.stop();
      await bus.close();
    },
  };
}
