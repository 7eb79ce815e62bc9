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
  IMAGE_URL_PREFIX: z.string().default('/files/').meta({
    description:
      "the path the image service's signed file URLs start with (the gateway serves them there, outside `/api`)",
  }),
  LEDGER_ADDR: z
    .string()
    .default(`127.0.0.1:${registry.ledger.grpcPort}`)
    .meta({ description: 'where the image service finds the ledger (it charges tokens there)' }),
  // The worker: jobs at once (default one per two cores), attempts, lease and pauses.
  GENERATION_CONCURRENCY: positiveInt(Math.max(1, Math.floor(availableParallelism() / 2))).meta({
    description: 'the generation worker: jobs at once',
    default: 'one job per two cores',
  }),
  GENERATION_MAX_ATTEMPTS: positiveInt(3).meta({
    description: 'the generation worker: attempts before a job fails (and is refunded)',
  }),
  GENERATION_LEASE_SECONDS: positiveInt(300).meta({
    description:
      "the generation worker: the lease a worker holds a job under (a dead worker's job is taken over when it runs out)",
  }),
  GENERATION_RETRY_BASE_MS: positiveInt(2_000).meta({
    description: 'the generation worker: the first pause before a retry (doubling)',
  }),
  GENERATION_SWEEP_INTERVAL_MS: positiveInt(5_000).meta({
    description:
      'how often a worker looks for due retries and expired leases (and the image service for charges and unlocks a crash left unsettled, ADR 0104)',
  }),
  GENERATION_SWEEP_GRACE_MS: z.coerce.number().int().min(0).default(30_000).meta({
    description:
      'how long a new job waits for the bus before a sweep takes it (and an unsettled charge or unlock before the image service settles it)',
  }),
  GENERATION_CONSUMER_GROUP: z
    .string()
    .default('image-worker')
    .meta({ description: "the work queue's consumer group" }),
  // `instant`: the engine's stand-in (adapters/instant-engine.ts) for tests of the product around the
  // engine, refused under NODE_ENV=production; `model`: the real engine.
  IMAGE_ENGINE: z.enum(['model', 'instant']).default('model').meta({
    description:
      "`instant`: the engine's stand-in (the photo upright on white as result, in milliseconds) for tests of the product around the engine, such as the browser journeys; refused under `NODE_ENV=production`",
  }),
  // A guest's unclaimed, unpaid try (original and results) is deleted this many days after it was
  // made, by a sweep this often (ADR 0105).
  ANON_RETENTION_DAYS: z.coerce.number().positive().default(7).meta({
    description:
      "image service: a guest's try that nobody claimed or paid for (its original, result and preview, and its row) is deleted this many days after it was made; its status then answers 404. Claimed and paid tries are kept (docs/decisions/0105-anonymous-limits-and-retention.md)",
  }),
  ANON_RETENTION_SWEEP_SECONDS: positiveInt(3_600).meta({
    description: 'image service: how often the sweep that deletes those tries runs',
  }),
  // The operator settings (ADR 0802): the generative key is the setting {GENERATIVE_PROVIDER}_api_key
  // (analytics names it by the same variable, under the same rule), sealed with the settings key:
  // SETTINGS_ENCRYPTION_KEY, or the file analytics keeps it in (read, never made, here).
  GENERATIVE_PROVIDER: z
    .string()
    .regex(/^[a-z][a-z0-9]{0,31}$/, 'must be lowercase letters and digits, starting with a letter')
    .default('openai')
    .meta({
      description:
        'the generative provider: its name makes the `{product}_api_key` setting (set the same name on analytics and image, whose workers take that key)',
    }),
  SETTINGS_ENCRYPTION_KEY: z
    .string()
    .refine((v) => parseSettingsKey(v) !== undefined, 'must be 32 bytes: 64 hex characters or base64')
    .optional()
    .meta({
      description:
        "32 bytes (64 hex characters or base64) that encrypt operator secrets (the generative provider's API key) with AES-256-GCM; wins over the file. Give the generation worker (the chart's image-worker, or the image service running one) the same value as analytics: it opens the operator's generative key with it (docs/decisions/0802-operator-settings.md)",
    }),
  SETTINGS_ENCRYPTION_KEY_FILE: z.string().optional().meta({
    description:
      'file holding that key, generated (mode 0600) by analytics when missing (the image service and worker only read it); with neither variable, saving a secret answers 501',
    default: 'unset (embedded: `$FLATLAY_DATA_DIR/analytics/settings-encryption.key`)',
  }),
});

export type ImageConfig = z.infer<typeof imageEnvSchema>;

export const loadImageConfig = (overrides: Partial<Record<keyof ImageConfig, string>> = {}) =>
  loadConfig(imageEnvSchema, { ...process.env, ...overrides });

export { blobFolder } from '@flatlay/files';
