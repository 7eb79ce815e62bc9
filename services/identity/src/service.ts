import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { loadConfig, type ServiceDefinition } from '@flatlay/platform';
import { ensureAdminAccount } from './app/admin-account.js';
import { identityGrpcService } from './grpc/identity-grpc.js';

export const identityService: ServiceDefinition = {
  name: 'identity',
  // Migrations are SQL files; they are read from src/ in both the source and the built layout.
  migrationsDir: fileURLToPath(new URL('../src/db/migrations', import.meta.url)),
  topics: [{ name: 'identity.user.v1', partitions: 6 }],
  grpc: (ctx) => [identityGrpcService(ctx)],
  async start(ctx) {
    const { ADMIN_EMAIL, ADMIN_PASSWORD } = loadConfig(adminEnvSchema);
    if (ADMIN_EMAIL && ADMIN_PASSWORD) {
      const outcome = await ensureAdminAccount(ctx.pool, ADMIN_EMAIL, ADMIN_PASSWORD);
      ctx.logger.info({ outcome }, 'admin account from ADMIN_EMAIL is ready');
    }
    return [];
  },
};

const adminEnvSchema = z
  .object({ ADMIN_EMAIL: z.email().optional(), ADMIN_PASSWORD: z.string().min(8, 'must have at least 8 characters').optional() })
  .refine((v) => Boolean(v.ADMIN_EMAIL) === Boolean(v.ADMIN_PASSWORD), { message: 'set both ADMIN_EMAIL and ADMIN_PASSWORD, or neither', path: ['ADMIN_PASSWORD'] });
