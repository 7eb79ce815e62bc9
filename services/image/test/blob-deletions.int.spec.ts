// A closed account's files are deleted after the transaction that deletes its rows, never inside
// it (issue 27): a slow or unreachable store holds no row locks and no inbox transaction, and a
// failed delete stays recorded until the sweeper finishes it. Real Postgres and a real folder store.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { events, eventTypes, topics } from '@flatlay/proto';
import { createLogger, outboxMessage, runMigrations, type Delivery, type Pool } from '@flatlay/platform';
import { freshDatabase, waitFor } from '../../platform/test/support.js';
import { type BlobStore, FolderBlobStore } from '@flatlay/files';
import { drainBlobDeletions } from '../src/app/blob-deletions.js';
import type { Generations } from '../src/app/generations.js';
import { imageEventHandler } from '../src/consumers/image-consumers.js';

const silent = createLogger('image-test', 'silent');
const migrations = { name: 'image', dir: fileURLToPath(new URL('../src/db/migrations', import.meta.url)) };

/** The folder store, whose deletes wait for `open` and fail while `failing` says so. */
class TroubledStore extends FolderBlobStore {
  gate: Promise<void> = Promise.resolve();
  failing = false;
  private async trouble() {
    await this.gate;
    if (this.failing) throw new Error('connect ECONNREFUSED store');
  }
  override async delete(key: string) {
    await this.trouble();
    return super.delete(key);
  }
  override async deletePrefix(prefix: string) {
    await this.trouble();
    return super.deletePrefix(prefix);
  }
}

describe('UserDeleted and the file store', { timeout: 60_000 }, () => {
  let pool: Pool;
  let root: string;
  let store: TroubledStore;
  let handle: (d: Delivery) => Promise<void>;

  beforeAll(async () => {
    pool = await freshDatabase('image_blob_deletions');
    await runMigrations(pool, [migrations]);
    root = await mkdtemp(join(tmpdir(), 'flatlay-blob-deletions-'));
    store = new TroubledStore(root);
    // The UserDeleted path never touches generations (only payments do).
    handle = imageEventHandler({ pool, blobs: store as BlobStore, generations: {} as Generations, logger: silent });
  });
  afterAll(async () => {
    await pool?.end();
    if (root) await rm(root, { recursive: true, force: true });
  });

  /** A user with one image and its three files. */
  async function userWithImage() {
    const userId = randomUUID();
    const imageId = randomUUID();
    const keys = [`uploads/${imageId}`, `images/${imageId}/result.jpg`, `images/${imageId}/preview.jpg`];
    for (const key of keys) await store.put(key, Buffer.from('x'), 'image/jpeg');
    await pool.query(
      `INSERT INTO images (image_id, user_id, enhancement_type, options, original_key, original_type,
         original_bytes, status, is_locked, created_at, updated_at)
       VALUES ($1, $2, 'tops', '{}', $3, 'image/jpeg', 1, 'completed', false, now(), now())`,
      [imageId, userId, keys[0]],
    );
    return { userId, imageId, keys };
  }

  const deleted = (userId: string): Delivery => {
    const m = outboxMessage(
      topics.identityUser,
      eventTypes.UserDeleted,
      events.UserDeleted,
      { userId },
      { aggregateId: userId, occurredAt: new Date() },
    );
    return { topic: m.topic, key: m.key, value: Buffer.from(m.envelope), headers: {}, partition: 0, offset: 0 };
  };
  const rowsOf = async (userId: string) =>
    (await pool.query('SELECT 1 FROM images WHERE user_id = $1', [userId])).rowCount ?? 0;
  const exists = async (keys: string[]) =>
    (await Promise.all(keys.map((k) => store.head(k)))).filter((b) => b !== undefined).length;

  it('commits the rows before any file is deleted: a hanging store holds no transaction', async () => {
    const user = await userWithImage();
    let open!: () => void;
    store.gate = new Promise((ok) => {
      open = ok;
    });
    const handling = handle(deleted(user.userId));
    // Seen from another connection while the store still hangs: the transaction has committed.
    await waitFor(async () => (await rowsOf(user.userId)) === 0, 'the rows are deleted while the store hangs');
    assert.equal(await exists(user.keys), 3, 'no file deleted yet');
    const idle = await pool.query(
      "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle in transaction'",
    );
    assert.equal(idle.rowCount, 0, 'no transaction waits on the store');
    open();
    await handling;
    assert.equal(await exists(user.keys), 0, 'every file deleted after the commit');
    assert.equal((await pool.query('SELECT 1 FROM blob_deletions')).rowCount, 0, 'nothing left to delete');
  });

  it('keeps the deletions a failing store refused, and the sweeper finishes them later', async () => {
    const user = await userWithImage();
    store.gate = Promise.resolve();
    store.failing = true;
    await handle(deleted(user.userId)); // handled: the store's trouble is not the event's
    assert.equal(await rowsOf(user.userId), 0);
    assert.equal(await exists(user.keys), 3, 'the files are still there');
    const { rows } = await pool.query<{ attempts: number; last_error: string }>(
      'SELECT attempts, last_error FROM blob_deletions ORDER BY id',
    );
    assert.equal(rows.length, 3, 'the original, the image folder and the data exports folder stay recorded');
    assert.ok(rows.every((r) => r.attempts === 1 && r.last_error.includes('ECONNREFUSED')));
    // Still down at the next sweep: nothing lost.
    await pool.query('UPDATE blob_deletions SET due_at = now()');
    assert.equal(await drainBlobDeletions(pool, store, silent), 0);
    assert.equal((await pool.query('SELECT 1 FROM blob_deletions')).rowCount, 3);
    store.failing = false;
    await pool.query('UPDATE blob_deletions SET due_at = now()');
    assert.equal(await drainBlobDeletions(pool, store, silent), 3);
    assert.equal(await exists(user.keys), 0, 'every file deleted once the store is back');
    assert.equal((await pool.query('SELECT 1 FROM blob_deletions')).rowCount, 0);
  });
});
