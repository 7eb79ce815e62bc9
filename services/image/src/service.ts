import { fileURLToPath } from 'node:url';
import { serviceTopics, type ServiceDefinition } from '@flatlay/platform';
import { imageGrpcService } from './grpc/image-grpc.js';

export const imageService: ServiceDefinition = {
  name: 'image',
  // Migrations are SQL files; they are read from src/ in both the source and the built layout.
  migrationsDir: fileURLToPath(new URL('../src/db/migrations', import.meta.url)),
  topics: serviceTopics('image'),
  grpc: (ctx) => [imageGrpcService(ctx)],
};
