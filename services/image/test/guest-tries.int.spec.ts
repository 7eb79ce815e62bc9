// A guest's tries (ADR 0105) on real Postgres and a blob folder, through the image service's gRPC
// API: the count of unfinished tries by e-mail and by client that the gateway's limit reads, and
// the retention sweep: tries past the retention go with their files, fresh, claimed and paid ones
// stay, and a try whose files cannot be deleted does not stop the others.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { image } from '@flatlay/proto';
import {
  type AppError,
  call,
  createClient,
  createLogger,
  InProcessBus,
  serviceCredential,
  startService,
  type RunningService,
} from '@flatlay/platform';
import { requireEnv } from '../../platform/test/support.js';
import { GuestRetention } from '../src/app/guest-tries.js';
import { type BlobStore, FolderBlobStore } from '@flatlay/files';
import { createImageService } from '../src/service.js';

const silent = createLogger('guest-tries-test', 'silent');
const photo = await readFile(new URL('./fixtures/top_floor_01.jpg', import.meta.url));

/** A folder store whose deletes of the keys in `failing` throw (a store that is down for them). */
class FlakyStore extends FolderBlobStore {
  readonly failing = new Set<string>();
  override async delete(key: string): Promise<void> {
    if (this.failing.has(key)) throw new Error(`the store refused to delete ${key}`);
    return super.delete(key);
  }
}

describe("a guest's tries: unfinished count and retention", { timeout: 120_000 }, () => {
  const run = randomUUID().slice(0, 8);
  const bus = new InProcessBus();
  let root: string;
  let blobs: FlakyStore;
  let svc: RunningService;
  let images: image.ImageServiceClient;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'flatlay-guest-tries-'));
    blobs = new FlakyStore(root);
    // No worker: every try stays processing until a test says otherwise. Guests are never charged,
    // so the ledger is never called.
    svc = await startService(
      createImageService({ blobs, ledgerAddress: () => '127.0.0.1:1', config: { ANON_RETENTION_DAYS: '7' } }),
      {
        databaseUrl: requireEnv('DATABASE_URL'),
        database: `flatlay_image_guest_tries_test_${run}`,
        bus,
        grpcPort: 0,
        logger: silent,
      },
    );
    images = createClient(image.ImageServiceClient, `127.0.0.1:${svc.port}`, serviceCredential('gateway'));
  });
  afterAll(async () => {
    images?.close();
    await svc?.stop();
    await bus.close();
    await rm(root, { recursive: true, force: true });
  });

  const sql = (text: string, values: unknown[]) => svc.context.pool.query(text, values);
  const code = (expected: string) => (e: AppError) => {
    assert.equal(e.code, expected);
    return true;
  };

  /** A guest's try with an original and a result folder in the store: its id and keys. */
  async function guestTry(email: string, guestClient: string) {
    const blobKey = `uploads/${randomUUID()}`;
    await blobs.put(blobKey, photo, 'image/jpeg');
    const { imageId } = await call(images, images.createGeneration, {
      userId: '',
      anonymousEmail: email,
      enhancementType: 'tops',
      blobKey,
      contentType: 'image/jpeg',
      sizeBytes: photo.length,
      options: undefined,
      idempotencyKey: '',
      guestClient,
    });
    const resultKey = `images/${imageId}/result.jpg`;
    await blobs.put(resultKey, photo, 'image/jpeg');
    await sql(`UPDATE images SET status = 'completed', result_key = $2, preview_key = $2 WHERE image_id = $1`, [
      imageId,
      resultKey,
    ]);
    return { imageId, keys: [blobKey, resultKey] };
  }
  const ageBy = (imageId: string, days: number) =>
    sql(`UPDATE images SET created_at = now() - $2 * interval '1 day' WHERE image_id = $1`, [imageId, days]);
  const rowOf = async (imageId: string) =>
    (await sql('SELECT guest_client FROM images WHERE image_id = $1', [imageId])).rows[0] as
      | { guest_client: string | null }
      | undefined;
  const stored = async (store: BlobStore, keys: string[]) =>
    (await Promise.all(keys.map((k) => store.head(k)))).map((info) => info !== undefined);

  it("counts a guest's tries still processing by e-mail address (any case) and by client", async () => {
    const email = `guest.${run}@example.com`;
    const client = `client-${randomUUID()}`;
    const other = `client-${randomUUID()}`;
    const made = [];
    for (const [address, from] of [
      [email, client],
      [email.toUpperCase(), other],
      [`someone.${run}@example.com`, client],
    ] as const) {
      const blobKey = `uploads/${randomUUID()}`;
      await blobs.put(blobKey, photo, 'image/jpeg');
      made.push(
        await call(images, images.createGeneration, {
          userId: '',
          anonymousEmail: address,
          enhancementType: 'tops',
          blobKey,
          contentType: 'image/jpeg',
          sizeBytes: photo.length,
          options: undefined,
          idempotencyKey: '',
          guestClient: from,
        }),
      );
    }
    const count = () => call(images, images.countUnfinishedGuestTries, { guestEmail: email, guestClient: client });
    assert.deepEqual(await count(), { byEmail: 2, byClient: 2 });
    // A finished try no longer counts; neither does an empty key.
    await sql(`UPDATE images SET status = 'failed' WHERE image_id = $1`, [made[0]!.imageId]);
    assert.deepEqual(await count(), { byEmail: 1, byClient: 1 });
    assert.deepEqual(await call(images, images.countUnfinishedGuestTries, { guestEmail: '', guestClient: '' }), {
      byEmail: 0,
      byClient: 0,
    });
  });

  it('deletes tries past the retention with their files, keeps fresh, claimed and paid ones, and goes on past a failure', async () => {
    const client = `client-${randomUUID()}`;
    const expired = [
      await guestTry(`a.${run}@example.com`, client),
      await guestTry(`b.${run}@example.com`, client),
      await guestTry(`c.${run}@example.com`, client),
    ];
    const fresh = await guestTry(`fresh.${run}@example.com`, client);
    const claimed = await guestTry(`claimed.${run}@example.com`, client);
    const paid = await guestTry(`paid.${run}@example.com`, client);
    for (const t of [...expired, claimed, paid]) await ageBy(t.imageId, 8);
    await ageBy(fresh.imageId, 6);
    await sql(`UPDATE images SET user_id = $2, is_locked = false, unlocked_via = 'claim' WHERE image_id = $1`, [
      claimed.imageId,
      randomUUID(),
    ]);
    await sql(
      `UPDATE images SET payment_id = 'pay_1', is_locked = false, unlocked_via = 'payment' WHERE image_id = $1`,
      [paid.imageId],
    );
    // The middle one's original cannot be deleted this time.
    const stuck = expired[1]!;
    blobs.failing.add(stuck.keys[0]!);

    const retention = new GuestRetention({ pool: svc.context.pool, blobs, logger: silent, retentionDays: 7 });
    const first = await retention.sweep();
    assert.deepEqual(first, { deleted: 2, failed: 1 });
    for (const t of [expired[0]!, expired[2]!]) {
      assert.equal(await rowOf(t.imageId), undefined, 'the row is deleted');
      assert.deepEqual(await stored(blobs, t.keys), [false, false], 'its original and result are deleted');
      // Its status now answers as for an image that never was.
      await assert.rejects(call(images, images.getAnonymousStatus, { enhancementId: t.imageId }), code('NOT_FOUND'));
    }
    assert.ok(await rowOf(stuck.imageId), 'a try whose files could not be deleted keeps its row');
    for (const t of [fresh, claimed, paid]) {
      assert.deepEqual(await stored(blobs, t.keys), [true, true], 'kept files');
      assert.ok(await rowOf(t.imageId), 'kept row');
    }
    assert.equal(
      (await call(images, images.getAnonymousStatus, { enhancementId: fresh.imageId })).status,
      'pending_payment',
    );
    // Kept tries past the retention forget the client they came from; a fresh one keeps it.
    assert.equal((await rowOf(claimed.imageId))!.guest_client, null);
    assert.equal((await rowOf(paid.imageId))!.guest_client, null);
    assert.equal((await rowOf(fresh.imageId))!.guest_client, client);

    // The next sweep, with the store answering again, finishes the one left.
    blobs.failing.clear();
    await retention.sweep();
    assert.equal(await rowOf(stuck.imageId), undefined);
    assert.deepEqual(await stored(blobs, stuck.keys), [false, false]);
    assert.ok(await rowOf(fresh.imageId), 'the fresh try is still kept');
  });
});
