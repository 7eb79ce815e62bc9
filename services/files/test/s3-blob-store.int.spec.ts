import { afterAll, beforeAll, describe } from 'vitest';
import type { S3BlobStore } from '../src/blobs/index.js';
import { blobStoreContract } from './contracts/blob-store-contract.js';
import { testS3Store } from './support/s3.js';

describe('S3 blob store on a real S3 server', () => {
  let store: S3BlobStore;
  beforeAll(async () => {
    store = await testS3Store();
  });
  afterAll(() => store?.close());

  blobStoreContract(() => store);
});
