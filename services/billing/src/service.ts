import { fileURLToPath } from 'node:url';
import { serviceTopics, type ServiceDefinition } from '@flatlay/platform';
import { billingGrpcService } from './grpc/billing-grpc.js';

export const billingService: ServiceDefinition = {
  name: 'billing',
  // Migrations are SQL files; they are read from src/ in both the source and the built layout.
  migrationsDir: fileURLToPath(new URL('../src/db/migrations', import.meta.url)),
  topics: serviceTopics('billing'),
  grpc: (ctx) => [billingGrpcService(ctx)],
};
