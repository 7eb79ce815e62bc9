import { fileURLToPath } from 'node:url';
import type { ServiceDefinition } from '@flatlay/platform';
import { ledgerGrpcService } from './grpc/ledger-grpc.js';

export const ledgerService: ServiceDefinition = {
  name: 'ledger',
  // Migrations are SQL files; they are read from src/ in both the source and the built layout.
  migrationsDir: fileURLToPath(new URL('../src/db/migrations', import.meta.url)),
  topics: [{ name: 'ledger.account.v1', partitions: 6 }],
  grpc: (ctx) => [ledgerGrpcService(ctx)],
};
