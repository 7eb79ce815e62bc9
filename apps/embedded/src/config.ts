// The embedded default's own settings (`npm start`), apart from the composition root so that
// scripts/docs/config-table.ts can read the schema without starting the product.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { env, metricsEnvSchema } from '@flatlay/platform';
import { cacheEnvSchema, rateLimitEnvSchema } from '@flatlay/gateway';

// apps/embedded/{src,dist}/config.*: three folders up.
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

export const embeddedEnvSchema = z
  .object({
    PORT: env.port(8080),
    HOST: z.string().default('0.0.0.0'),
    FLATLAY_DATA_DIR: z.string().default(join(repoRoot, '.data')),
    DATABASE_URL: env.optionalUrl().meta({ default: 'unset: embedded PostgreSQL' }),
    // Names of the services' databases on DATABASE_URL's server: <prefix><service>. Two products
    // sharing one server (tests, a staging box) each take their own prefix.
    DATABASE_NAME_PREFIX: z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,40}$/, 'must be lowercase letters, digits and _, starting with a letter or _')
      .default('flatlay_')
      .meta({
        description:
          "embedded product only: its services' databases on `DATABASE_URL`'s server are `<prefix><service>`, so two products (test runs, a staging box) can share one server",
      }),
    KAFKA_BROKERS: env.csv().optional(),
    KAFKA_TOPIC_PREFIX: env.kafkaTopicPrefix(),
    CORS_ORIGINS: env.csv().optional(),
    LOG_LEVEL: env.logLevel(),
    // `0`: no generation worker in this process (jobs wait for a worker run as its own process).
    IMAGE_IN_PROCESS_WORKER: z.enum(['0', '1']).default('1').meta({
      description:
        'embedded product (`npm start`) only: `1` runs one generation worker in the process, `0` runs none, so jobs stay queued or processing until a worker run as its own process (`services/image/dist/worker.js`) takes them; the API fuzz run sets `0` (it checks the API, not job processing)',
    }),
  })
  .extend(rateLimitEnvSchema.shape)
  .extend(cacheEnvSchema.shape)
  .extend(metricsEnvSchema.shape);
