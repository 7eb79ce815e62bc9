// Billing, the ledger and identity on the real PostgreSQL and Kafka, each in databases and consumer
// groups of its own, so runs never share rows or partitions with other runs.
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { billing, identity, ledger } from '@flatlay/proto';
import {
  type Bus,
  createClient,
  createLogger,
  serviceCredential,
  startService,
  type RunningService,
  type ServiceContext,
  type ServiceDefinition,
} from '@flatlay/platform';
import { createIdentityService } from '@flatlay/identity';
import { ledgerService } from '@flatlay/ledger';
import { TokenAccounts } from '../../../ledger/src/app/token-accounts.js';
import { consumedTopics, ledgerEventHandler } from '../../../ledger/src/consumers/ledger-consumers.js';
import { ledgerGrpcService } from '../../../ledger/src/grpc/ledger-grpc.js';
import { requireEnv, testKafkaBus, type TestKafkaBus } from '../../../platform/test/support.js';
import { createBillingService, type BillingOverrides } from '../../src/service.js';

export interface Stack {
  bus: TestKafkaBus;
  billingService: RunningService;
  billing: billing.BillingServiceClient;
  ledgerService?: RunningService;
  ledger?: ledger.LedgerServiceClient;
  identityService?: RunningService;
  identity?: identity.IdentityServiceClient;
  stop(): Promise<void>;
}

/** The bus as a service sees it, with every subscription in `groupId` instead of the service's own group. */
function inGroup(bus: Bus, groupId: string): Bus {
  return {
    ensureTopics: (topics) => bus.ensureTopics(topics),
    publish: (messages) => bus.publish(messages),
    subscribe: (options) => bus.subscribe({ ...options, groupId }),
    close: () => bus.close(),
  };
}

/** Identity as it runs, its consumer of billing's subscription events in a group of this run's. */
async function isolatedIdentity(group: string): Promise<ServiceDefinition> {
  const keyFile = join(await mkdtemp(join(tmpdir(), 'billing-identity-')), 'jwt-signing-key.pem');
  const def = createIdentityService({ JWT_KEY_FILE: keyFile });
  // The service keys its state by context, so start() and grpc() must see the same one.
  const own = new WeakMap<ServiceContext, ServiceContext>();
  const ownContext = (ctx: ServiceContext) => {
    if (!own.has(ctx)) own.set(ctx, { ...ctx, bus: inGroup(ctx.bus, group) });
    return own.get(ctx)!;
  };
  return { ...def, grpc: (ctx) => def.grpc(ownContext(ctx)), start: (ctx) => def.start!(ownContext(ctx)) };
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

export async function startStack(options: {
  billing: BillingOverrides;
  withLedger: boolean;
  withIdentity?: boolean;
}): Promise<Stack> {
  const run = randomUUID().replaceAll('-', '').slice(0, 10);
  const databaseUrl = requireEnv('DATABASE_URL');
  // Topics of its own (ADR 0010): its consumers read this stack's events only, never the run's history.
  const bus = testKafkaBus(`billing-test-${run}`);
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
  let identityRunning: RunningService | undefined;
  let identityClient: identity.IdentityServiceClient | undefined;
  if (options.withIdentity) {
    identityRunning = await startService(await isolatedIdentity(`identity-${run}`), {
      databaseUrl,
      database: `flatlay_identity_test_${run}`,
      bus,
      grpcPort: 0,
      logger: createLogger('identity', 'silent'),
    });
    identityClient = createClient(
      identity.IdentityServiceClient,
      `127.0.0.1:${identityRunning.port}`,
      serviceCredential('gateway'),
    );
  }
  return {
    bus,
    billingService,
    billing: billingClient,
    ...(ledgerRunning ? { ledgerService: ledgerRunning } : {}),
    ...(ledgerClient ? { ledger: ledgerClient } : {}),
    ...(identityRunning ? { identityService: identityRunning } : {}),
    ...(identityClient ? { identity: identityClient } : {}),
    async stop() {
      billingClient.close();
      ledgerClient?.close();
      identityClient?.close();
      await identityRunning?.stop();
      await ledgerRunning?.stop();
      await billingService.stop();
      await bus.close();
    },
  };
}
