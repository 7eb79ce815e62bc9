import { z } from 'zod';
import { loadConfig } from '@flatlay/platform';
import { blobEnvSchema, blobStoreFrom, urlSigningKey } from '@flatlay/files';
import type { FileServing } from './serve.js';

/** The gateway's file settings: the image service's blob store settings and its URL-signing key. */
export const filesEnvSchema = blobEnvSchema.extend({
  IMAGE_URL_SIGNING_KEY: z.string().min(32, 'must be at least 32 characters').optional().meta({
    description:
      'key (≥ 32 characters) of the HMAC-SHA256 signature on the one-hour file URLs the image service hands out and the gateway serves under `IMAGE_URL_PREFIX` (outside `/api`)',
    default:
      'generated in memory (embedded default); required for the image service and the gateway run as their own processes (a generation worker needs none)',
  }),
});

/**
 * The blob store and URL key from the environment (and overrides), as the image service chooses
 * them: so the gateway stores uploads where the service reads them and checks the URLs it signs.
 * Without IMAGE_URL_SIGNING_KEY the key is this process tree's own (the embedded default, where the
 * image service signs in the same process), unless `standalone`: the gateway as its own process
 * must be given the image service's key, and refuses to start without it.
 */
export function filesFromEnv(
  overrides: Partial<Record<keyof z.infer<typeof filesEnvSchema>, string>> = {},
  { standalone = false } = {},
): FileServing {
  const config = loadConfig(filesEnvSchema, { ...process.env, ...overrides });
  return {
    blobs: blobStoreFrom(config),
    urlKey: urlSigningKey(config.IMAGE_URL_SIGNING_KEY, !standalone),
  };
}
