import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe } from 'vitest';
import { S3BlobStore } from '../src/blobs/index.js';
import { blobStoreContract } from './contracts/blob-store-contract.js';

/** A real S3 server: `npm test` starts MinIO and sets these (scripts/infra/minio.mjs). */
function s3Env() {
  const names = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;
  const missing = names.filter((n) => !process.env[n]);
  if (missing.length)
    throw new Error(`${missing.join(', ')} not set: the S3 contract runs through \`npm test\`, which starts MinIO`);
  const e = process.env as Record<(typeof names)[number], string>;
  return {
    endpoint: e.S3_ENDPOINT,
    bucket: e.S3_BUCKET,
    region: e.S3_REGION,
    accessKeyId: e.S3_ACCESS_KEY_ID,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY,
  };
}

describe('S3 blob store on a real S3 server', () => {
  let store: S3BlobStore;
  beforeAll(async () => {
    const config = s3Env();
    const admin = new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    });
    await admin.send(new CreateBucketCommand({ Bucket: config.bucket })).catch((e: { name?: string }) => {
      if (e.name !== 'BucketAlreadyOwnedByYou' && e.name !== 'BucketAlreadyExists') throw e;
    });
    admin.destroy();
    store = new S3BlobStore(config);
  });
  afterAll(() => store?.close());

  blobStoreContract(() => store);
});
