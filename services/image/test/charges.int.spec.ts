// What a crash or an outage leaves behind in the charges of generations and unlocks, and how the
// image service finishes it (ADR 0104), on real Postgres with the real ledger service: a job left
// 'charging' (before or after the ledger's spend), an unlock left between the spend and the unlock,
// and a worker's sweep whose first refund can never be paid.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { image, ledger } from '@flatlay/proto';
import {
  call,
  createClient,
  createLogger,
  generationWorkQueue,
  InProcessBus,
  serviceCredential,
  startService,
  withTransaction,
  type RunningService,
} from '@flatlay/platform';
import { ledgerService } from '@flatlay/ledger';
import { TokenAccounts } from '../../ledger/src/app/token-accounts.js';
import { sweepCharges } from '../src/app/charge-sweeper.js';
import { recordUnlock } from '../src/app/charges.js';
import { findImage, insertImage } from '../src/adapters/image-store.js';
import { insertJob, loadJob, saveJob } from '../src/adapters/job-store.js';
import { grpcLedger } from '../src/adapters/ledger-client.js';
import { FolderBlobStore } from '@flatlay/files';
import { createImageService } from '../src/index.js';
import { exponentialBackoff, newChargingJob, newJob } from '../src/domain/index.js';
import { GenerationWorker } from '../src/app/generation-worker.js';
import { requireEnv, waitFor } from '../../platform/test/support.js';
import { instantEngine } from './support/instant-engine.js';

const silent = createLogger('charges-test', (process.env.TEST_LOG_LEVEL as 'silent') ?? 'silent');
const policy = { maxAttempts: 3, leaseMs: 60_000, backoffMs: exponentialBackoff(10) };

describe('charges a crash left behind', { timeout: 120_000 }, () => {
  let ledgerSvc: RunningService;
  let imageSvc: RunningService;
  let blobRoot: string;
  let ledgerClient: ledger.LedgerServiceClient;
  const run = randomUUID().slice(0, 8);
  const port = () => grpcLedger(() => `127.0.0.1:${ledgerSvc.port}`, serviceCredential('image'));

  beforeAll(async () => {
    blobRoot = await mkdtemp(join(tmpdir(), 'flatlay-charges-'));
    ledgerSvc = await startService(ledgerService, {
      databaseUrl: requireEnv('DATABASE_URL'),
      database: `flatlay_ledger_charges_${run}`,
      bus: new InProcessBus(),
      grpcPort: 0,
      logger: silent,
    });
    // The service without its own sweeper's timing in the way: the tests run sweeps themselves.
    imageSvc = await startService(
      createImageService({
        blobs: new FolderBlobStore(blobRoot),
        ledgerAddress: () => `127.0.0.1:${ledgerSvc.port}`,
        consumerGroup: `image-charges-${run}`,
        config: { GENERATION_SWEEP_INTERVAL_MS: '3600000', GENERATION_SWEEP_GRACE_MS: '3600000' },
      }),
      {
        databaseUrl: requireEnv('DATABASE_URL'),
        database: `flatlay_image_charges_${run}`,
        bus: new InProcessBus(),
        grpcPort: 0,
        logger: silent,
      },
    );
    ledgerClient = createClient(
      ledger.LedgerServiceClient,
      `127.0.0.1:${ledgerSvc.port}`,
      serviceCredential('gateway'),
    );
  });
  afterAll(async () => {
    ledgerClient?.close();
    await imageSvc?.stop();
    await ledgerSvc?.stop();
    await rm(blobRoot, { recursive: true, force: true });
  });

  const pool = () => imageSvc.context.pool;
  const balanceOf = async (userId: string) => (await call(ledgerClient, ledgerClient.getBalance, { userId })).balance;
  const newUser = async () => {
    const userId = randomUUID();
    await call(ledgerClient, ledgerClient.openAccount, { userId });
    return userId;
  };
  /** An image and its job as a request writes them before anything else (ADR 0104, step 1). */
  const recorded = async (userId: string, status: 'charging' | 'completed', at = new Date()) => {
    const imageId = randomUUID();
    await withTransaction(pool(), async (tx) => {
      await insertImage(tx, {
        imageId,
        userId,
        guestEmail: null,
        enhancementType: 'tops',
        options: { background: 'white', shadow: true, size: 0, format: 'jpeg', transparent: false, preset: '' },
        originalKey: `uploads/${imageId}`,
        originalType: 'image/jpeg',
        originalBytes: 10,
        isLocked: true,
        chargedTokens: 0,
        createdAt: at,
      });
      await insertJob(tx, imageId, status === 'charging' ? newChargingJob(at) : newJob(at), at);
      if (status === 'completed')
        await tx.query(`UPDATE images SET status = 'completed' WHERE image_id = $1`, [imageId]);
    });
    return imageId;
  };
  /** One round of the image service's charge sweeper, as its timer runs it. */
  const sweepOnce = () =>
    sweepCharges({
      pool: pool(),
      ledger: port(),
      policy,
      logger: silent,
      intervalMs: 3_600_000,
      graceMs: 0,
      unlocked: async (tx, image) => {
        await tx.query(`UPDATE images SET is_locked = false, unlocked_via = 'tokens' WHERE image_id = $1`, [
          image.imageId,
        ]);
      },
    });

  it('settles a job left charging before the spend: charged once, queued, unlocked', async () => {
    const userId = await newUser();
    const imageId = await recorded(userId, 'charging');
    await sweepOnce();
    const image = await findImage(pool(), imageId);
    assert.deepEqual([image?.isLocked, image?.chargedTokens], [false, 100]);
    assert.equal((await loadJob(pool(), imageId))?.state.status, 'queued');
    assert.equal(await balanceOf(userId), 100);
    await sweepOnce();
    assert.equal(await balanceOf(userId), 100, 'a second sweep takes nothing more');
  });

  it('settles a job left charging after the spend without charging again', async () => {
    const userId = await newUser();
    const imageId = await recorded(userId, 'charging');
    // The crash fell after the ledger took the tokens and before the job was queued.
    await call(ledgerClient, ledgerClient.spend, {
      userId,
      imageId,
      purpose: ledger.SpendPurpose.SPEND_PURPOSE_ENHANCEMENT,
    });
    assert.equal(await balanceOf(userId), 100);
    await sweepOnce();
    const image = await findImage(pool(), imageId);
    assert.deepEqual(
      [image?.isLocked, image?.chargedTokens],
      [false, 100],
      'the charge the ledger took is the one recorded',
    );
    assert.equal(await balanceOf(userId), 100);
  });

  it('finishes an unlock left between the spend and the unlock', async () => {
    const userId = await newUser();
    const imageId = await recorded(userId, 'completed');
    assert.ok(await recordUnlock(pool(), imageId, userId, new Date()));
    await call(ledgerClient, ledgerClient.spend, {
      userId,
      imageId,
      purpose: ledger.SpendPurpose.SPEND_PURPOSE_UNLOCK,
    });
    await sweepOnce();
    const image = await findImage(pool(), imageId);
    assert.deepEqual([image?.isLocked, image?.unlockPendingUser], [false, null]);
    assert.equal(await balanceOf(userId), 100, 'the unlock was charged once');
  });

  it("keeps sweeping past a refund that can never be paid, records why, and still takes over a dead worker's job", async () => {
    const closed = await newUser();
    const open = await newUser();
    const owed = async (userId: string) => {
      const imageId = await recorded(userId, 'charging');
      await sweepOnce(); // charged and queued
      await pool().query(
        `UPDATE images SET status = 'failed', refund = 'due', updated_at = now() - interval '1 minute' WHERE image_id = $1`,
        [imageId],
      );
      await pool().query(`UPDATE generation_jobs SET status = 'failed' WHERE image_id = $1`, [imageId]);
      return imageId;
    };
    // The closed account's refund comes first in the sweep's order.
    const lost = await owed(closed);
    const paid = await owed(open);
    await new TokenAccounts(ledgerSvc.context.pool).execute(closed, { type: 'CloseAccount', data: { at: new Date() } });
    // A job whose worker died: running, its lease long gone.
    const orphan = await recorded(open, 'charging');
    await sweepOnce();
    const job = await loadJob(pool(), orphan);
    assert.ok(job);
    const lease = new Date(Date.now() - 60_000);
    assert.ok(
      await saveJob(
        pool(),
        orphan,
        { ...job.state, status: 'running', attempts: 1, worker: 'dead', leaseExpiresAt: lease },
        job.version,
        lease,
      ),
    );

    const worker = new GenerationWorker({
      pool: pool(),
      blobs: new FolderBlobStore(blobRoot),
      ledger: port(),
      engine: async () => instantEngine,
      logger: silent,
      policy,
      concurrency: 2,
      sweepIntervalMs: 100,
      sweepGraceMs: 0,
    });
    const queue = new InProcessBus();
    await queue.ensureTopics([{ name: generationWorkQueue.topic, partitions: 1 }]);
    await worker.start(queue, { topic: generationWorkQueue.topic, group: `charges-${run}` });
    try {
      await waitFor(
        async () => (await findImage(pool(), paid))?.refund === 'done',
        'the payable refund paid in the same sweep',
        30_000,
      );
      const notPossible = await findImage(pool(), lost);
      assert.equal(notPossible?.refund, 'not_possible');
      const { rows } = await pool().query<{ refund_note: string }>(
        'SELECT refund_note FROM images WHERE image_id = $1',
        [lost],
      );
      assert.match(rows[0]!.refund_note, /closed/);
      // The operator sees it (GET /api/admin/refunds/unpaid answers this list).
      const images = createClient(image.ImageServiceClient, `127.0.0.1:${imageSvc.port}`, serviceCredential('gateway'));
      const unpaid = await call(images, images.listUnpaidRefunds, { limit: 10 });
      images.close();
      assert.deepEqual(
        unpaid.refunds.map((u) => [u.imageId, u.userId, Number(u.tokens)]),
        [[lost, closed, 100]],
      );
      assert.equal(await balanceOf(open), 100, 'the open account got its 100 back (200 - 100 - 100 + 100)');
      // The orphaned job was taken over by the same sweep (its original is missing, so it runs and fails).
      await waitFor(
        async () => (await loadJob(pool(), orphan))?.state.worker !== 'dead',
        "the dead worker's job taken over",
        30_000,
      );
    } finally {
      await worker.stop();
    }
  });
});
