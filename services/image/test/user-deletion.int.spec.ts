// UserDeleted on both blob stores (a folder and S3 on a real S3 server, versitygw): the image service deletes the
// deleted user's rows, originals, results and previews, and nobody else's. Real ledger, real
// Postgres, the image service with its in-process worker (a fake engine), identity's event on the bus.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { events, eventTypes, image, ledger, topics } from '@flatlay/proto';
import {
  call,
  createClient,
  createLogger,
  InProcessBus,
  outboxMessage,
  serviceCredential,
  startService,
  type RunningService,
} from '@flatlay/platform';
import { ledgerService } from '@flatlay/ledger';
import { testS3Store } from '../../files/test/support/s3.js';
import { requireEnv, waitFor } from '../../platform/test/support.js';
import { type BlobStore, FolderBlobStore } from '@flatlay/files';
import { createImageService } from '../src/service.js';
import { instantEngine } from './support/instant-engine.js';

const silent = createLogger('image-test', 'silent');
const photo = await readFile(new URL('./fixtures/top_floor_01.jpg', import.meta.url));

const stores: Array<[string, () => Promise<{ blobs: BlobStore; cleanUp(): Promise<void> }>]> = [
  [
    'the folder store',
    async () => {
      const root = await mkdtemp(join(tmpdir(), 'flatlay-deletion-'));
      return { blobs: new FolderBlobStore(root), cleanUp: () => rm(root, { recursive: true, force: true }) };
    },
  ],
  [
    'the S3 store on versitygw',
    async () => {
      const blobs = await testS3Store();
      return { blobs, cleanUp: async () => blobs.close() };
    },
  ],
];

describe.each(stores)('UserDeleted with %s', { timeout: 120_000 }, (_name, makeStore) => {
  const run = randomUUID().slice(0, 8);
  const bus = new InProcessBus();
  let store: Awaited<ReturnType<typeof makeStore>>;
  let ledgerSvc: RunningService;
  let imageSvc: RunningService;
  let images: image.ImageServiceClient;
  let ledgerClient: ledger.LedgerServiceClient;

  beforeAll(async () => {
    store = await makeStore();
    ledgerSvc = await startService(ledgerService, {
      databaseUrl: requireEnv('DATABASE_URL'),
      database: `flatlay_ledger_deletion_test_${run}`,
      bus,
      grpcPort: 0,
      logger: silent,
    });
    imageSvc = await startService(
      createImageService({
        blobs: store.blobs,
        ledgerAddress: () => `127.0.0.1:${ledgerSvc.port}`,
        engine: async () => instantEngine,
        inProcessWorker: true,
        config: { GENERATION_SWEEP_INTERVAL_MS: '100' },
      }),
      {
        databaseUrl: requireEnv('DATABASE_URL'),
        database: `flatlay_image_deletion_test_${run}`,
        bus,
        grpcPort: 0,
        logger: silent,
      },
    );
    images = createClient(image.ImageServiceClient, `127.0.0.1:${imageSvc.port}`, serviceCredential('gateway'));
    ledgerClient = createClient(
      ledger.LedgerServiceClient,
      `127.0.0.1:${ledgerSvc.port}`,
      serviceCredential('gateway'),
    );
  });
  afterAll(async () => {
    images?.close();
    ledgerClient?.close();
    await imageSvc?.stop();
    await ledgerSvc?.stop();
    await bus.close();
    await store?.cleanUp();
  });

  /** A completed image of a new user: its three files' keys. */
  async function completedImageOfNewUser() {
    const userId = randomUUID();
    await call(ledgerClient, ledgerClient.openAccount, { userId });
    const blobKey = `uploads/${randomUUID()}`;
    await store.blobs.put(blobKey, photo, 'image/jpeg');
    const { imageId } = await call(images, images.createGeneration, {
      userId,
      anonymousEmail: '',
      enhancementType: 'tops',
      blobKey,
      contentType: 'image/jpeg',
      sizeBytes: photo.length,
      options: undefined,
      idempotencyKey: '',
    });
    await waitFor(
      async () => (await call(images, images.getStatus, { userId, imageId })).image?.status === 'completed',
      'the image completes',
    );
    const { rows } = await imageSvc.context.pool.query(
      'SELECT original_key, result_key, preview_key FROM images WHERE image_id = $1',
      [imageId],
    );
    const keys = Object.values(rows[0]) as string[];
    assert.equal(keys.length, 3);
    for (const key of keys) assert.ok(await store.blobs.head(key), `${key} is stored`);
    return { userId, imageId, keys };
  }

  it("deletes the user's rows, originals, results and previews, and nobody else's", async () => {
    const leaving = await completedImageOfNewUser();
    const second = await completedImageOfNewUser();
    const staying = await completedImageOfNewUser();
    // Two images of the leaving user.
    await imageSvc.context.pool.query('UPDATE images SET user_id = $1 WHERE image_id = $2', [
      leaving.userId,
      second.imageId,
    ]);

    const m = outboxMessage(
      topics.identityUser,
      eventTypes.UserDeleted,
      events.UserDeleted,
      { userId: leaving.userId },
      { aggregateId: leaving.userId, occurredAt: new Date() },
    );
    await bus.publish([{ topic: m.topic, key: m.key, value: Buffer.from(m.envelope), headers: {} }]);
    await waitFor(
      async () =>
        (await imageSvc.context.pool.query('SELECT 1 FROM images WHERE user_id = $1', [leaving.userId])).rowCount === 0,
      "the user's images are deleted",
    );
    // The files go after the rows' transaction has committed (issue 27): wait for them too.
    const files = [...leaving.keys, ...second.keys];
    await waitFor(
      async () => (await Promise.all(files.map((k) => store.blobs.head(k)))).every((b) => b === undefined),
      "the user's files are deleted",
    );
    // Each recorded deletion's row goes once its file is gone (a moment after the file itself).
    await waitFor(
      async () => (await imageSvc.context.pool.query('SELECT 1 FROM blob_deletions')).rowCount === 0,
      'no file deletion left recorded',
    );
    const jobs = await imageSvc.context.pool.query('SELECT 1 FROM generation_jobs WHERE image_id = ANY($1)', [
      [leaving.imageId, second.imageId],
    ]);
    assert.equal(jobs.rowCount, 0, 'their jobs are gone too');
    for (const key of staying.keys) assert.ok(await store.blobs.head(key), `${key} of another user stays`);
    assert.equal(
      (await call(images, images.getStatus, { userId: staying.userId, imageId: staying.imageId })).image?.status,
      'completed',
    );
  });
});
