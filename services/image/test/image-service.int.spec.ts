import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { events, eventTypes, image, ledger, topics } from '@flatlay/proto';
import {
  type AppError,
  call,
  createClient,
  createLogger,
  generationWorkQueue,
  InProcessBus,
  outboxMessage,
  serviceCredential,
  startService,
  type RunningService,
} from '@flatlay/platform';
import { ledgerService } from '@flatlay/ledger';
import { requireEnv, testKafkaBus, type TestKafkaBus, waitFor } from '../../platform/test/support.js';
import { grpcLedger } from '../src/adapters/ledger-client.js';
import { FolderBlobStore, readAll } from '@flatlay/files';
import { exponentialBackoff } from '../src/domain/index.js';
import { createImageService } from '../src/service.js';
import { urlSigningKey, verifyUrl } from '@flatlay/files';
import { GenerationWorker, type EnhanceEngine } from '../src/app/generation-worker.js';
import { envGenerativeSettings, GenerativeProvider } from '../src/adapters/generative/index.js';
import { startFakeImageEditApi } from './support/fake-image-edit-api.js';
import { instantEngine } from './support/instant-engine.js';

const silent = createLogger('image-test', (process.env.TEST_LOG_LEVEL as 'silent') ?? 'silent');
const photo = readFile(new URL('./fixtures/top_floor_01.jpg', import.meta.url));

const brokenEngine: EnhanceEngine = {
  async enhance() {
    throw new Error('the GPU fell off the bus');
  },
  async close() {},
};

describe('image service over gRPC on Postgres and Kafka', { timeout: 180_000 }, () => {
  let ledgerSvc: RunningService;
  let imageSvc: RunningService;
  let bus: TestKafkaBus;
  let blobRoot: string;
  let blobs: FolderBlobStore;
  let images: image.ImageServiceClient;
  let ledgerClient: ledger.LedgerServiceClient;
  const run = randomUUID().slice(0, 8);

  beforeAll(async () => {
    blobRoot = await mkdtemp(join(tmpdir(), 'flatlay-image-'));
    blobs = new FolderBlobStore(blobRoot);
    bus = testKafkaBus('image-test');
    // The ledger is the real service; only its own consumers are left off the shared Kafka.
    ledgerSvc = await startService(ledgerService, {
      databaseUrl: requireEnv('DATABASE_URL'),
      database: `flatlay_ledger_image_test_${run}`,
      bus: new InProcessBus(),
      grpcPort: 0,
      logger: silent,
    });
    imageSvc = await startService(
      createImageService({
        blobs,
        ledgerAddress: () => `127.0.0.1:${ledgerSvc.port}`,
        consumerGroup: `image-test-${run}`,
      }),
      {
        databaseUrl: requireEnv('DATABASE_URL'),
        database: `flatlay_image_test_${run}`,
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
    await bus?.close();
    await rm(blobRoot, { recursive: true, force: true });
  });

  /** A worker on the service's database and the Kafka work queue, as the chart's image-worker runs. */
  async function startWorker(engine: EnhanceEngine, generative?: GenerativeProvider) {
    const worker = new GenerationWorker({
      pool: imageSvc.context.pool,
      blobs,
      ledger: grpcLedger(() => `127.0.0.1:${ledgerSvc.port}`, serviceCredential('image')),
      engine: async () => engine,
      generative,
      logger: silent,
      policy: { maxAttempts: 3, leaseMs: 60_000, backoffMs: exponentialBackoff(10) },
      concurrency: 2,
      sweepIntervalMs: 50,
      sweepGraceMs: 0,
    });
    await worker.start(bus, { topic: generationWorkQueue.topic, group: `image-worker-test-${run}-${randomUUID()}` });
    return worker;
  }

  const newUser = async (tokens = 200) => {
    const userId = randomUUID();
    await call(ledgerClient, ledgerClient.openAccount, { userId });
    if (tokens < 200)
      await call(ledgerClient, ledgerClient.adjust, {
        userId,
        adjustmentId: randomUUID(),
        operatorId: 'test',
        reason: 'test',
        direction: 'deduct',
        tokens: 200 - tokens,
      });
    return userId;
  };
  const balanceOf = async (userId: string) => (await call(ledgerClient, ledgerClient.getBalance, { userId })).balance;
  const history = async (userId: string) =>
    (await call(ledgerClient, ledgerClient.listTransactions, { userId, limit: 100 })).transactions.map(
      (t) => t.description,
    );
  const upload = async () => {
    const key = `uploads/${randomUUID()}`;
    const bytes = await photo;
    await blobs.put(key, bytes, 'image/jpeg');
    return { blobKey: key, contentType: 'image/jpeg', sizeBytes: bytes.length };
  };
  const generate = async (who: { userId?: string; anonymousEmail?: string }, enhancementType = 'clothing') =>
    call(images, images.createGeneration, {
      userId: who.userId ?? '',
      anonymousEmail: who.anonymousEmail ?? '',
      enhancementType,
      ...(await upload()),
      options: undefined,
      idempotencyKey: '',
    });
  const statusOf = async (userId: string, imageId: string) =>
    (await call(images, images.getStatus, { userId, imageId })).image!;
  const settled = (userId: string, imageId: string) =>
    waitFor(async () => (await statusOf(userId, imageId)).status !== 'processing', `image ${imageId} settles`);
  const code = (expected: string) => (e: AppError) => {
    assert.equal(e.code, expected);
    return true;
  };
  const urlKey = urlSigningKey(undefined, true);

  it('charges before the job is queued, then delivers an unlocked result at signed URLs', async () => {
    const userId = await newUser();
    const created = await generate({ userId });
    assert.equal(created.tokensUsed, 100);
    assert.equal(created.newBalance, 100);
    assert.equal(created.locked, false);
    assert.equal(created.status, 'processing');
    // No worker runs yet: the charge is already on the account.
    assert.equal(await balanceOf(userId), 100);

    const worker = await startWorker(instantEngine);
    try {
      await settled(userId, created.imageId);
    } finally {
      await worker.stop();
    }
    const done = await statusOf(userId, created.imageId);
    assert.equal(done.status, 'completed');
    assert.equal(done.isLocked, false);
    for (const url of [done.processedUrl, done.previewUrl, done.originalUrl])
      assert.deepEqual(verifyUrl(urlKey, url, new Date()), { ok: true }, url);
    assert.match(done.processedUrl, /^\/files\/images\/[\w-]+\/result\.jpg\?/);
    assert.equal(await balanceOf(userId), 100, 'charged once');
  });

  it('locks the result of a user with too few tokens, and unlocks it once for 100 tokens', async () => {
    const userId = await newUser(50);
    const created = await generate({ userId });
    assert.deepEqual([created.locked, created.tokensUsed, created.newBalance], [true, 0, 50]);
    const worker = await startWorker(instantEngine);
    try {
      await settled(userId, created.imageId);
    } finally {
      await worker.stop();
    }
    const locked = await statusOf(userId, created.imageId);
    assert.equal(locked.status, 'completed');
    assert.equal(locked.processedUrl, '', 'no URL for a locked full result');
    assert.ok(locked.previewUrl);
    assert.equal(locked.imageUrl, locked.previewUrl);

    await assert.rejects(
      call(images, images.unlockWithTokens, { userId, imageId: created.imageId }),
      code('INSUFFICIENT_TOKENS'),
    );
    await call(ledgerClient, ledgerClient.credit, {
      userId,
      paymentId: randomUUID(),
      packId: 'main',
      packName: 'Main',
      tokens: 100,
    });
    const unlocked = await call(images, images.unlockWithTokens, { userId, imageId: created.imageId });
    assert.deepEqual([unlocked.success, unlocked.tokensUsed, unlocked.newBalance], [true, 100, 50]);
    assert.ok(unlocked.image?.processedUrl);
    const again = await call(images, images.unlockWithTokens, { userId, imageId: created.imageId });
    assert.deepEqual([again.success, again.tokensUsed], [true, 0]);
    assert.equal(await balanceOf(userId), 50);
    assert.equal((await history(userId)).filter((d) => d === 'Image unlock').length, 1);

    const page = await call(images, images.listImages, { userId, page: 1, limit: 12 });
    assert.deepEqual(
      page.images.map((i) => i.imageId),
      [created.imageId],
    );
    assert.deepEqual(page.pagination, { page: 1, totalPages: 1, hasPrev: false, hasNext: false, total: 1, limit: 12 });
    await assert.rejects(call(images, images.listImages, { userId, page: 1, limit: 51 }), code('INVALID_ARGUMENT'));
  });

  it("answers NOT_FOUND for another user's image on every call", async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const { imageId } = await generate({ userId: owner });
    await assert.rejects(call(images, images.getStatus, { userId: stranger, imageId }), code('NOT_FOUND'));
    await assert.rejects(call(images, images.unlockWithTokens, { userId: stranger, imageId }), code('NOT_FOUND'));
    await assert.rejects(
      call(images, images.claimAnonymous, { userId: stranger, enhancementId: imageId }),
      code('NOT_FOUND'),
    );
    await assert.rejects(call(images, images.getAnonymousStatus, { enhancementId: imageId }), code('NOT_FOUND'));
    assert.equal((await call(images, images.listImages, { userId: stranger, page: 1, limit: 12 })).images.length, 0);
    assert.equal(await balanceOf(stranger), 200);
    // Let a worker finish it so no queued job is left for the tests after this one.
    const worker = await startWorker(instantEngine);
    try {
      await settled(owner, imageId);
    } finally {
      await worker.stop();
    }
  });

  it('keeps sub-types for active subscribers, learnt from identity’s plan events', async () => {
    const userId = await newUser();
    await assert.rejects(generate({ userId }, 'side_view'), code('UNPROCESSABLE'));
    await assert.rejects(generate({ userId }, 'hats'), code('INVALID_ARGUMENT'));
    const m = outboxMessage(
      topics.identityUser,
      eventTypes.UserPlanChanged,
      events.UserPlanChanged,
      { userId, subscriptionPlan: 'studio', subscriptionStatus: 'active' },
      { aggregateId: userId, occurredAt: new Date() },
    );
    await bus.publish([{ topic: m.topic, key: m.key, value: Buffer.from(m.envelope), headers: {} }]);
    await waitFor(
      async () =>
        (await imageSvc.context.pool.query('SELECT 1 FROM user_plans WHERE user_id = $1', [userId])).rowCount === 1,
      'the plan is known',
    );
    const created = await generate({ userId }, 'side_view');
    assert.equal(created.tokensUsed, 100);
    const worker = await startWorker(instantEngine);
    try {
      await settled(userId, created.imageId);
    } finally {
      await worker.stop();
    }
  });

  it("runs a subscriber's job on the generative provider, and falls back to the local engine when it fails", async () => {
    const fake = await startFakeImageEditApi();
    const generative = new GenerativeProvider({
      settings: envGenerativeSettings({
        GENERATIVE_API_URL: fake.baseUrl,
        GENERATIVE_API_KEY: 'sk-test',
        GENERATIVE_PLANS: 'studio',
        GENERATIVE_PROMPTS: JSON.stringify({ tops: 'a top on white' }),
        GENERATIVE_TIMEOUT_MS: '5000',
      }),
      logger: silent,
    });
    try {
      const subscriber = await newUser();
      const m = outboxMessage(
        topics.identityUser,
        eventTypes.UserPlanChanged,
        events.UserPlanChanged,
        { userId: subscriber, subscriptionPlan: 'studio', subscriptionStatus: 'active' },
        { aggregateId: subscriber, occurredAt: new Date() },
      );
      await bus.publish([{ topic: m.topic, key: m.key, value: Buffer.from(m.envelope), headers: {} }]);
      await waitFor(
        async () =>
          (await imageSvc.context.pool.query('SELECT 1 FROM user_plans WHERE user_id = $1', [subscriber])).rowCount ===
          1,
        'the plan is known',
      );
      const other = await newUser();
      const byProvider = await generate({ userId: subscriber }, 'tops');
      const byEngine = await generate({ userId: other }, 'tops');
      const worker = await startWorker(instantEngine, generative);
      try {
        await settled(subscriber, byProvider.imageId);
        await settled(other, byEngine.imageId);
        fake.mode = 'error';
        const fellBack = await generate({ userId: subscriber }, 'tops');
        await settled(subscriber, fellBack.imageId);
        const widthOf = async (imageId: string) => {
          const { rows } = await imageSvc.context.pool.query(
            'SELECT result_key, width FROM images WHERE image_id = $1',
            [imageId],
          );
          const stored = await blobs.get(rows[0].result_key);
          return [rows[0].width, (await sharp(await readAll(stored!.body)).metadata()).width];
        };
        assert.deepEqual(await widthOf(byProvider.imageId), [1024, 1024], "the provider's image");
        assert.deepEqual(await widthOf(byEngine.imageId), [80, 80], "the local engine's image");
        assert.deepEqual(await widthOf(fellBack.imageId), [80, 80], 'the local engine after the provider failed');
        assert.equal(fake.seen.length, 2, 'only the subscriber’s jobs went to the provider');
        assert.equal(fake.seen[0]!.prompt, 'a top on white');
        for (const [user, id] of [
          [subscriber, byProvider.imageId],
          [subscriber, fellBack.imageId],
        ] as const)
          assert.equal((await statusOf(user, id)).status, 'completed');
        assert.equal(await balanceOf(subscriber), 0, 'charged once per image, whoever made it');
      } finally {
        await worker.stop();
      }
    } finally {
      await fake.close();
    }
  });

  it('fails a job that always fails after its attempts, with exactly one refund', async () => {
    const userId = await newUser();
    const { imageId } = await generate({ userId });
    assert.equal(await balanceOf(userId), 100);
    const worker = await startWorker(brokenEngine);
    try {
      await settled(userId, imageId);
      await waitFor(
        async () =>
          (await imageSvc.context.pool.query(`SELECT 1 FROM images WHERE image_id = $1 AND refund = 'done'`, [imageId]))
            .rowCount === 1,
        'the refund is confirmed',
      );
    } finally {
      await worker.stop();
    }
    assert.equal((await statusOf(userId, imageId)).status, 'failed');
    const job = await imageSvc.context.pool.query('SELECT status, attempts FROM generation_jobs WHERE image_id = $1', [
      imageId,
    ]);
    assert.deepEqual(job.rows[0], { status: 'failed', attempts: 3 });
    assert.equal(await balanceOf(userId), 200);
    const h = await history(userId);
    assert.equal(h.filter((d) => /refund/i.test(d)).length, 1, h.join(', '));
  });

  it('completes a job whose worker died mid-way (its lease ran out) on another worker, charged once', async () => {
    const userId = await newUser();
    const { imageId } = await generate({ userId });
    // A worker claimed it and died: the job is running under a lease that has run out.
    await imageSvc.context.pool.query(
      `UPDATE generation_jobs SET status = 'running', attempts = 1, worker = 'dead-worker',
         lease_expires_at = now() - interval '1 second', version = version + 1 WHERE image_id = $1`,
      [imageId],
    );
    const worker = await startWorker(instantEngine);
    try {
      await settled(userId, imageId);
    } finally {
      await worker.stop();
    }
    assert.equal((await statusOf(userId, imageId)).status, 'completed');
    const job = await imageSvc.context.pool.query('SELECT attempts FROM generation_jobs WHERE image_id = $1', [
      imageId,
    ]);
    assert.equal(job.rows[0].attempts, 2);
    assert.equal(await balanceOf(userId), 100);
    assert.equal((await history(userId)).filter((d) => d === 'Image enhancement').length, 1);
  });

  it("locks a guest's try until paid, and lets a user claim it once for 100 tokens", async () => {
    const guest = await generate({ anonymousEmail: 'guest@example.com' });
    assert.deepEqual([guest.locked, guest.tokensUsed, guest.newBalance], [true, 0, undefined]);
    const paidTry = await generate({ anonymousEmail: 'other@example.com' });
    const worker = await startWorker(instantEngine);
    try {
      for (const id of [guest.imageId, paidTry.imageId])
        await waitFor(
          async () => (await call(images, images.getAnonymousStatus, { enhancementId: id })).status !== 'processing',
          'guest try settles',
        );
    } finally {
      await worker.stop();
    }
    const pending = await call(images, images.getAnonymousStatus, { enhancementId: guest.imageId });
    assert.deepEqual([pending.status, pending.isPaid, pending.processedUrl], ['pending_payment', false, '']);
    assert.ok(pending.previewUrl);

    const userId = await newUser();
    const claimed = await call(images, images.claimAnonymous, { userId, enhancementId: guest.imageId });
    assert.deepEqual([claimed.success, claimed.tokensUsed, claimed.newBalance], [true, 100, 100]);
    assert.ok(claimed.imageUrl.includes('/result.jpg'));
    const again = await call(images, images.claimAnonymous, { userId, enhancementId: guest.imageId });
    assert.deepEqual([again.success, again.tokensUsed], [true, 0]);
    assert.equal(await balanceOf(userId), 100);
    assert.equal((await statusOf(userId, guest.imageId)).isLocked, false);

    assert.deepEqual(await call(images, images.markPaid, { imageId: paidTry.imageId, paymentId: 'pay-1' }), {
      unlocked: true,
    });
    assert.deepEqual(await call(images, images.markPaid, { imageId: paidTry.imageId, paymentId: 'pay-1' }), {
      unlocked: false,
    });
    const paid = await call(images, images.getAnonymousStatus, { enhancementId: paidTry.imageId });
    assert.deepEqual([paid.status, paid.isPaid], ['completed', true]);
    assert.ok(paid.processedUrl);
  });

  it("deletes a deleted user's rows, originals, results and previews", async () => {
    const userId = await newUser();
    const { imageId } = await generate({ userId });
    const worker = await startWorker(instantEngine);
    try {
      await settled(userId, imageId);
    } finally {
      await worker.stop();
    }
    const { rows } = await imageSvc.context.pool.query(
      'SELECT original_key, result_key, preview_key FROM images WHERE image_id = $1',
      [imageId],
    );
    const keys = Object.values(rows[0]) as string[];
    for (const key of keys) assert.ok(await blobs.head(key), key);
    const m = outboxMessage(
      topics.identityUser,
      eventTypes.UserDeleted,
      events.UserDeleted,
      { userId },
      { aggregateId: userId, occurredAt: new Date() },
    );
    await bus.publish([{ topic: m.topic, key: m.key, value: Buffer.from(m.envelope), headers: {} }]);
    await waitFor(
      async () =>
        (await imageSvc.context.pool.query('SELECT 1 FROM images WHERE user_id = $1', [userId])).rowCount === 0,
      "the user's images are deleted",
    );
    // The files go after the rows' transaction has committed (issue 27).
    await waitFor(
      async () => (await Promise.all(keys.map((k) => blobs.head(k)))).every((b) => b === undefined),
      "the user's files are deleted",
    );
    await assert.rejects(call(images, images.getStatus, { userId, imageId }), code('NOT_FOUND'));
  });
});
