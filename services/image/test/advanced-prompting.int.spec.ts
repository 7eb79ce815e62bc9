// Advanced prompting (#28) through the image service's gRPC API on real Postgres: a subscriber's
// instruction is stored with the image and reaches the generative provider (a local fake of the
// image edit API) after the type's prompt; a non-subscriber, a deployment without a provider and
// an instruction over the limit are refused (UNPROCESSABLE, 422 at the gateway, as the plans'
// sub-types are on this call; too long: INVALID_ARGUMENT, 400), and nothing is recorded for them.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { image, ledger } from '@flatlay/proto';
import {
  type AppError,
  call,
  createClient,
  createLogger,
  httpStatusOf,
  InProcessBus,
  serviceCredential,
  startService,
  type RunningService,
} from '@flatlay/platform';
import { ledgerService } from '@flatlay/ledger';
import { FolderBlobStore } from '@flatlay/files';
import { requireEnv, waitFor } from '../../platform/test/support.js';
import { type GenerativeSettings, generativeSettingsFromEnv } from '../src/adapters/generative/index.js';
import { recordPlan } from '../src/app/user-plans.js';
import { INSTRUCTION_MAX_LENGTH } from '../src/domain/index.js';
import { createImageService } from '../src/service.js';
import { type FakeImageEditApi, startFakeImageEditApi } from './support/fake-image-edit-api.js';
import { generateTestPhoto } from './support/generate.js';
import { instantEngine } from './support/instant-engine.js';

const silent = createLogger('image-prompting-test', (process.env.TEST_LOG_LEVEL as 'silent') ?? 'silent');

describe('advanced prompting through the image service', () => {
  const run = randomUUID().slice(0, 8);
  let ledgerSvc: RunningService;
  let imageSvc: RunningService;
  let fake: FakeImageEditApi;
  let blobRoot: string;
  let blobs: FolderBlobStore;
  let images: image.ImageServiceClient;
  /** What the service reads as its generative settings; undefined: no provider configured. */
  let settings: GenerativeSettings | undefined;
  const subscriber = randomUUID();
  const plain = randomUUID();

  const generate = (userId: string, instruction?: string) => generateTestPhoto(images, blobs, { userId, instruction });
  const refusal = async (userId: string, instruction: string, code = 'UNPROCESSABLE', status = 422) => {
    const before = await imageCount(userId);
    const error = (await generate(userId, instruction).then(
      () => assert.fail('refused'),
      (e: unknown) => e,
    )) as AppError;
    assert.equal(error.code, code);
    assert.equal(httpStatusOf(error.code), status);
    assert.equal(await imageCount(userId), before, 'no image recorded');
    return error;
  };
  const imageCount = async (userId: string) =>
    Number(
      (
        await imageSvc.context.pool.query<{ n: string }>('SELECT count(*) AS n FROM images WHERE user_id = $1', [
          userId,
        ])
      ).rows[0]?.n,
    );

  beforeAll(async () => {
    fake = await startFakeImageEditApi();
    settings = generativeSettingsFromEnv({
      GENERATIVE_API_URL: fake.baseUrl,
      GENERATIVE_API_KEY: 'sk-prompting-test',
      GENERATIVE_PLANS: 'studio',
      GENERATIVE_PROMPTS: JSON.stringify({ tops: 'a top on white' }),
      GENERATIVE_TIMEOUT_MS: '5000',
    });
    blobRoot = await mkdtemp(join(tmpdir(), 'flatlay-image-prompting-'));
    blobs = new FolderBlobStore(blobRoot);
    ledgerSvc = await startService(ledgerService, {
      databaseUrl: requireEnv('DATABASE_URL'),
      database: `flatlay_ledger_prompting_test_${run}`,
      bus: new InProcessBus(),
      grpcPort: 0,
      logger: silent,
    });
    const ledgerAddress = () => `127.0.0.1:${ledgerSvc.port}`;
    imageSvc = await startService(
      createImageService({
        blobs,
        ledgerAddress,
        engine: async () => instantEngine,
        inProcessWorker: true,
        generativeSettings: { current: async () => settings },
      }),
      {
        databaseUrl: requireEnv('DATABASE_URL'),
        database: `flatlay_image_prompting_test_${run}`,
        bus: new InProcessBus(),
        grpcPort: 0,
        logger: silent,
      },
    );
    images = createClient(image.ImageServiceClient, `127.0.0.1:${imageSvc.port}`, serviceCredential('gateway'));
    const ledgerClient = createClient(ledger.LedgerServiceClient, ledgerAddress(), serviceCredential('gateway'));
    for (const userId of [subscriber, plain]) {
      await call(ledgerClient, ledgerClient.openAccount, { userId });
      await call(ledgerClient, ledgerClient.credit, {
        userId,
        paymentId: randomUUID(),
        packId: 'main',
        packName: 'Main',
        tokens: 1000,
      });
    }
    ledgerClient.close();
    // The plan as identity's UserPlanChanged leaves it (the consumer's own write).
    await recordPlan(imageSvc.context.pool, subscriber, 'studio', 'active', new Date());
  });
  afterAll(async () => {
    images?.close();
    await imageSvc?.stop();
    await ledgerSvc?.stop();
    await fake?.close();
    if (blobRoot) await rm(blobRoot, { recursive: true, force: true });
  });

  it('says whether advanced prompting is offered, and how long an instruction may be', async () => {
    assert.deepEqual(await call(images, images.getGenerationOptions, {}), {
      advancedPrompting: true,
      instructionMaxLength: INSTRUCTION_MAX_LENGTH,
    });
  });

  it("stores a subscriber's instruction with the image and sends it to the provider after the type's prompt", async () => {
    const { imageId } = await generate(subscriber, '  keep the logo facing up ');
    const stored = await imageSvc.context.pool.query<{ instruction: string | null }>(
      'SELECT instruction FROM images WHERE image_id = $1',
      [imageId],
    );
    assert.equal(stored.rows[0]?.instruction, 'keep the logo facing up');
    await waitFor(
      async () =>
        (await call(images, images.getStatus, { userId: subscriber, imageId })).image!.status !== 'processing',
      `image ${imageId} settles`,
    );
    const prompt = fake.seen.at(-1)?.prompt ?? '';
    assert.ok(prompt.startsWith('a top on white'), prompt);
    assert.ok(prompt.endsWith('keep the logo facing up'), prompt);
  });

  it('refuses a non-subscriber, and an instruction over the limit', async () => {
    const e = await refusal(plain, 'brighter please');
    assert.equal(e.details.reason, 'subscription_required');
    const long = await refusal(subscriber, 'x'.repeat(INSTRUCTION_MAX_LENGTH + 1), 'INVALID_ARGUMENT', 400);
    assert.equal(long.details.reason, 'too_long');
    // Without an instruction the non-subscriber's generation goes ahead as before.
    assert.ok((await generate(plain)).imageId);
  });

  it('refuses everyone where no generative provider is configured, and says so', async () => {
    const kept = settings;
    settings = undefined;
    try {
      assert.equal((await call(images, images.getGenerationOptions, {})).advancedPrompting, false);
      const e = await refusal(subscriber, 'brighter please');
      assert.equal(e.details.reason, 'not_configured');
    } finally {
      settings = kept;
    }
  });
});
