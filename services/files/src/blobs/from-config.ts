import { join } from 'node:path';
import { z } from 'zod';
import { env } from '@flatlay/platform';
import type { BlobStore } from './blob-store.js';
import { FolderBlobStore } from './folder-store.js';
import { S3BlobStore } from './s3-store.js';

/**
 * Where originals, results and previews live: an S3 bucket when S3_BUCKET is set (with
 * S3_ENDPOINT for an S3-compatible server), else a folder under FLATLAY_DATA_DIR. The image
 * service, its worker and the gateway (which stores uploads and serves files) read the same
 * settings, so they always share one store.
 */
export const blobEnvSchema = z.object({
  S3_ENDPOINT: env.optionalUrl().meta({
    description: 'with `S3_BUCKET`: the address of an S3-compatible server such as MinIO',
    default: 'unset: AWS S3',
  }),
  S3_BUCKET: z.string().optional().meta({
    description:
      'where the image service and worker keep originals, results and previews, and where the gateway streams uploads (`uploads/<id>`) and serves files from (set the same `S3_*` values on all three): an S3 bucket when set',
    default: 'unset: files in `$FLATLAY_DATA_DIR/blobs`',
  }),
  S3_REGION: z.string().default('us-east-1').meta({ description: "with `S3_BUCKET`: the bucket's region" }),
  S3_ACCESS_KEY_ID: z
    .string()
    .optional()
    .meta({ description: 'with `S3_BUCKET`: the access key id', default: "unset: the SDK's own credential chain" }),
  S3_SECRET_ACCESS_KEY: z
    .string()
    .optional()
    .meta({ description: 'with `S3_BUCKET`: the secret access key', default: "unset: the SDK's own credential chain" }),
  FLATLAY_DATA_DIR: z.string().default('.data').meta({
    description:
      "embedded default's data: PostgreSQL files, and blobs (`$FLATLAY_DATA_DIR/blobs`) unless `S3_BUCKET` is set",
    default: '`.data` (the embedded product: `.data` in the repository)',
  }),
});

export type BlobConfig = z.infer<typeof blobEnvSchema>;

export const blobFolder = (config: Pick<BlobConfig, 'FLATLAY_DATA_DIR'>) => join(config.FLATLAY_DATA_DIR, 'blobs');

/** The blob store the settings name. */
export function blobStoreFrom(config: BlobConfig): BlobStore {
  return config.S3_BUCKET
    ? new S3BlobStore({
        bucket: config.S3_BUCKET,
        region: config.S3_REGION,
        endpoint: config.S3_ENDPOINT,
        accessKeyId: config.S3_ACCESS_KEY_ID,
        secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      })
    : new FolderBlobStore(blobFolder(config));
}
