import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import { FolderBlobStore } from '../src/blobs/index.js';
import { blobStoreContract } from './contracts/blob-store-contract.js';

describe('folder blob store', () => {
  let root: string;
  let store: FolderBlobStore;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'flatlay-blobs-'));
    store = new FolderBlobStore(root);
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  blobStoreContract(() => store);
});
