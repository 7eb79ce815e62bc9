// The real S3 server of the int tier (`npm test` starts versitygw and sets S3_*: scripts/infra/s3-server.mjs),
// as a blob store whose bucket exists: for this package's contract and for the services that keep
// files in it.
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { S3BlobStore } from '../../src/blobs/index.js';

const NAMES = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;

export function s3Env() {
  const missing = NAMES.filter((n) => !process.env[n]);
  if (missing.length)
    throw new Error(`${missing.join(', ')} not set: run through \`npm test\`, which starts the S3 server`);
  const e = process.env as Record<(typeof NAMES)[number], string>;
  return {
    endpoint: e.S3_ENDPOINT,
    bucket: e.S3_BUCKET,
    region: e.S3_REGION,
    accessKeyId: e.S3_ACCESS_KEY_ID,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY,
  };
}

/** A store on the test server's bucket, creating the bucket first when no test has yet. */
export async function testS3Store(): Promise<S3BlobStore> {
  const config = s3Env();
  const admin = new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
  });
  try {
    await admin.send(new CreateBucketCommand({ Bucket: config.bucket })).catch((e: { name?: string }) => {
      if (e.name !== 'BucketAlreadyOwnedByYou' && e.name !== 'BucketAlreadyExists') throw e;
    });
  } finally {
    admin.destroy();
  }
  return new S3BlobStore(config);
}
