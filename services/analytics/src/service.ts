import { fileURLToPath } from 'node:url';
import { serviceTopics, type ServiceDefinition } from '@flatlay/platform';
import { analyticsGrpcService } from './grpc/analytics-grpc.js';

export const analyticsService: ServiceDefinition = {
  name: 'analytics',
  // Migrations are SQL files; they are read from src/ in both the source and the built layout.
  migrationsDir: fileURLToPath(new URL('../src/db/migrations', import.meta.url)),
  topics: serviceTopics('analytics'),
  grpc: (ctx) => [analyticsGrpcService(ctx)],
};
