import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { loadConfig, parseSettingsKey, registry } from '@flatlay/platform';
import { blobEnvSchema } from '@flatlay/files';

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** The image service's and worker's settings (environment only; defaults fit one machine). */
// Blob storage (blobEnvSchema): an S3 bucket when S3_BUCKET is set with S3_ENDPOINT or S3_REGION, else a folder.
export const imageEnvSchema = blobEnvSchema.extend({
  // Signs the file URLs the gateway serves; unset: generated in memory (embedded default only).
  IMAGE_URL_SIGNING_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  // Where the gateway serves files (outside /api: a browser fetches them as plain files).
  IMAGE_URL_PREFIX: z.string().default('/files/'),
  LEDGER_ADDR: z.string().default(`127.0.0.1:${registry.ledger.grpcPort}`),
  // The worker: jobs at once (default one per two cores), attempts, lease and pauses.
  GENERATION_CONCURRENCY: positiveInt(Math.max(1, Math.floor(availableParallelism() / 2))),
  GENERATION_MAX_ATTEMPTS: positiveInt(3),
  GENERATION_LEASE_SECONDS: positiveInt(300),
  GENERATION_RETRY_BASE_MS: positiveInt(2_000),
  GENERATION_SWEEP_INTERVAL_MS: positiveInt(5_000),
  GENERATION_SWEEP_GRACE_MS: z.coerce.number().int().min(0).default(30_000),
  GENERATION_CONSUMER_GROUP: z.string().default('image-worker'),
  // `instant`: the engine's stand-in (worker/instant-engine.ts) for tests of the product around the
  // engine, refused under NODE_ENV=production; `model`: the real engine.
  IMAGE_ENGINE: z.enum(['model', 'instant']).default('model'),
  // A guest's unclaimed, unpaid try (original and results) is deleted this many days after it was
  // made, by a sweep this often (ADR 0105).
  ANON_RETENTION_DAYS: z.coerce.number().positive().default(7),
  ANON_RETENTION_SWEEP_SECONDS: positiveInt(3_600),
  // The operator settings (ADR 0802): the generative key is the setting {GENERATIVE_PROVIDER}_api_key
  // (analytics names it by the same variable, under the same rule), sealed with the settings key:
  // SETTINGS_ENCRYPTION_KEY, or the file analytics keeps it in (read, never made, here).
  GENERATIVE_PROVIDER: z
    .string()
    .regex(/^[a-z][a-z0-9]{0,31}$/, 'must be lowercase letters and digits, starting with a letter')
    .default('openai'),
  SETTINGS_ENCRYPTION_KEY: z
    .string()
    .refine((v) => parseSettingsKey(v) !== undefined, 'must be 32 bytes: 64 hex characters or base64')
    .optional(),
  SETTINGS_ENCRYPTION_KEY_FILE: z.string().optional(),
});

export type ImageConfig = z.infer<typeof imageEnvSchema>;

export const loadImageConfig = (overrides: Partial<Record<keyof ImageConfig, string>> = {}) =>
  loadConfig(imageEnvSchema, { ...process.env, ...overrides });

export { blobFolder } from '@flatlay/files';
