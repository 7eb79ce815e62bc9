import { z } from 'zod';
import { inProcessServiceSecret, loadConfig } from '@flatlay/platform';
import { blobEnvSchema, blobStoreFrom, urlSigningKey } from '@flatlay/image/files';
import type { FileServing } from './serve.js';

/** The gateway's file settings: the image service's blob store settings and its URL-signing key. */
export const filesEnvSchema = blobEnvSchema.extend({
  IMAGE_URL_SIGNING_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
});

/**
 * The blob store and URL key from the environment (and overrides), as the image service chooses
 * them: so the gateway stores uploads where the service reads them and checks the URLs it signs.
 * Without SERVICE_AUTH_SECRET the key derives from this process tree's secret (embedded default).
 */
export function filesFromEnv(
  overrides: Partial<Record<keyof z.infer<typeof filesEnvSchema>, string>> = {},
): FileServing {
  const config = loadConfig(filesEnvSchema, { ...process.env, ...overrides });
  return {
    blobs: blobStoreFrom(config),
    urlKey: urlSigningKey(config.IMAGE_URL_SIGNING_KEY, process.env.SERVICE_AUTH_SECRET || inProcessServiceSecret()),
  };
}
