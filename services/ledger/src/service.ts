import { fileURLToPath } from 'node:url';
import { registry, serviceTopics, type ServiceContext, type ServiceDefinition } from '@flatlay/platform';
import { TokenAccounts } from './app/token-accounts.js';
import { consumedTopics, ledgerEventHandler } from './consumers/ledger-consumers.js';
import { ledgerGrpcService } from './grpc/ledger-grpc.js';

// One TokenAccounts per service context: its cache must not outlive the pool it reads.
const accountsOf = new WeakMap<ServiceContext, TokenAccounts>();
const accounts = (ctx: ServiceContext) => {
  if (!accountsOf.has(ctx)) accountsOf.set(ctx, new TokenAccounts(ctx.pool));
  return accountsOf.get(ctx)!;
};

export const ledgerService: ServiceDefinition = {
  name: 'ledger',
  // Migrations are SQL files; they are read from src/ in both the source and the built layout.
  migrationsDir: fileURLToPath(new URL('../src/db/migrations', import.meta.url)),
  topics: serviceTopics('ledger'),
  grpc: (ctx) => [ledgerGrpcService(ctx, accounts(ctx))],
  async start(ctx) {
    const subscription = await ctx.bus.subscribe({
      groupId: registry.ledger.consumes!.group,
      topics: consumedTopics,
      handle: ledgerEventHandler(ctx.pool, accounts(ctx), ctx.logger),
      logger: ctx.logger,
    });
    return [() => subscription.close()];
  },
};
