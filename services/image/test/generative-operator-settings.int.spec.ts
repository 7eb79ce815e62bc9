// The operator's generative key reaches the workers without a restart: a SettingsChanged on
// analytics.settings.v1 (real Kafka) carrying `{product}_api_key` sealed under the settings key is
// kept, still sealed, by the image service in its database, and the next subscriber job of a
// worker run as its own service (as the chart's image-worker: same database, only the work queue)
// calls the provider (a local fake of the image edit API) with it. A restarted worker keeps it, a
// clear brings back GENERATIVE_API_KEY, and a repeat of an event changes nothing. The provider's
// name is this run's own, so no other run's image service (they share the topic) takes its key.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
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
  sealSetting,
  serviceCredential,
  startService,
  type OutboxMessage,
  type RunningService,
} from '@flatlay/platform';
import { ledgerService } from '@flatlay/ledger';
import { requireEnv, testKafkaBus, type TestKafkaBus, waitFor } from '../../platform/test/support.js';
import { FolderBlobStore } from '@flatlay/files';
import { SETTINGS_CONSUMER } from '../src/consumers/settings-consumer.js';
import { createGenerationWorkerService, createImageService } from '../src/service.js';
import { type FakeImageEditApi, startFakeImageEditApi } from './support/fake-image-edit-api.js';
import { generateTestPhoto } from './support/generate.js';
import { instantEngine } from './support/instant-engine.js';

const silent = createLogger('image-settings-test', (process.env.TEST_LOG_LEVEL as 'silent') ?? 'silent');

describe("the generative provider takes the operator's key from the settings", { timeout: 180_000 }, () => {
  const run = randomUUID().slice(0, 8);
  const provider = `t${run}`;
  const setting = `${provider}_api_key`;
  const settingsKey = randomBytes(32);
  const database = `flatlay_image_settings_test_${run}`;
  let ledgerSvc: RunningService;
  let imageSvc: RunningService;
  let workerSvc: RunningService;
  let bus: TestKafkaBus;
  let fake: FakeImageEditApi;
  let blobRoot: string;
  let blobs: FolderBlobStore;
  let images: image.ImageServiceClient;
  let ledgerClient: ledger.LedgerServiceClient;
  let subscriber: string;

  const ledgerAddress = () => `127.0.0.1:${ledgerSvc.port}`;
  // What both the image service and the worker read from the environment.
  const config = () => ({
    GENERATIVE_PROVIDER: provider,
    SETTINGS_ENCRYPTION_KEY: settingsKey.toString('hex'),
    GENERATIVE_API_URL: fake.baseUrl,
    GENERATIVE_API_KEY: 'sk-env',
    GENERATIVE_PLANS: 'studio',
    GENERATIVE_PROMPTS: JSON.stringify({ tops: 'a top on white' }),
    GENERATIVE_TIMEOUT_MS: '5000',
    GENERATION_SWEEP_INTERVAL_MS: '50',
    GENERATION_SWEEP_GRACE_MS: '0',
    GENERATION_RETRY_BASE_MS: '10',
  });
  const startWorker = () =>
    startService(
      createGenerationWorkerService({
        blobs,
        ledgerAddress,
        engine: async () => instantEngine,
        workerGroup: `image-worker-settings-test-${run}`,
        config: config(),
      }),
      { databaseUrl: requireEnv('DATABASE_URL'), database, bus, grpcPort: 0, logger: silent },
    );

  const publish = async (m: OutboxMessage) =>
    bus.publish([{ topic: m.topic, key: m.key, value: Buffer.from(m.envelope), headers: {} }]);
  const settingsChanged = (settings: events.SettingValue[], version: number) =>
    outboxMessage(
      topics.analyticsSettings,
      eventTypes.SettingsChanged,
      events.SettingsChanged,
      { changedBy: 'operator-1', settings },
      { aggregateId: 'operator-settings', aggregateVersion: version, occurredAt: new Date() },
    );
  const keySet = (key: string, version: number) =>
    settingsChanged(
      [
        {
          key: setting,
          secret: true,
          value: '',
          encryptedValue: sealSetting(settingsKey, setting, key),
          masked: `****${key.slice(-4)}`,
          cleared: false,
        },
      ],
      version,
    );
  const keyCleared = (version: number) =>
    settingsChanged(
      [{ key: setting, secret: true, value: '', encryptedValue: Buffer.alloc(0), masked: '', cleared: true }],
      version,
    );
  const kept = async () =>
    (
      await imageSvc.context.pool.query<{ sealed: Buffer | null; version: string; updated_at: Date }>(
        'SELECT sealed, version, updated_at FROM operator_settings WHERE setting_key = $1',
        [setting],
      )
    ).rows[0];
  const handled = async (eventId: string) =>
    (
      await imageSvc.context.pool.query('SELECT 1 FROM inbox WHERE consumer = $1 AND event_id = $2', [
        SETTINGS_CONSUMER,
        eventId,
      ])
    ).rowCount;

  /** One subscriber job through the worker: the key the provider was called with. */
  const nextJobKey = async () => {
    const before = fake.seen.length;
    const { imageId } = await generateTestPhoto(images, blobs, { userId: subscriber });
    await waitFor(
      async () =>
        (await call(images, images.getStatus, { userId: subscriber, imageId })).image!.status !== 'processing',
      `image ${imageId} settles`,
    );
    const done = await call(images, images.getStatus, { userId: subscriber, imageId });
    assert.equal(done.image!.status, 'completed');
    assert.equal(fake.seen.length, before + 1, 'one call to the provider per job');
    return fake.seen.at(-1)!.authorization;
  };

  beforeAll(async () => {
    fake = await startFakeImageEditApi();
    blobRoot = await mkdtemp(join(tmpdir(), 'flatlay-image-settings-'));
    blobs = new FolderBlobStore(blobRoot);
    bus = testKafkaBus('image-settings-test');
    ledgerSvc = await startService(ledgerService, {
      databaseUrl: requireEnv('DATABASE_URL'),
      database: `flatlay_ledger_settings_test_${run}`,
      bus: new InProcessBus(),
      grpcPort: 0,
      logger: silent,
    });
    imageSvc = await startService(
      createImageService({ blobs, ledgerAddress, consumerGroup: `image-settings-test-${run}`, config: config() }),
      { databaseUrl: requireEnv('DATABASE_URL'), database, bus, grpcPort: 0, logger: silent },
    );
    workerSvc = await startWorker();
    images = createClient(image.ImageServiceClient, `127.0.0.1:${imageSvc.port}`, serviceCredential('gateway'));
    ledgerClient = createClient(ledger.LedgerServiceClient, ledgerAddress(), serviceCredential('gateway'));
    // A studio subscriber (identity's event, as the image service learns plans) with tokens for every job here.
    subscriber = randomUUID();
    await call(ledgerClient, ledgerClient.openAccount, { userId: subscriber });
    await call(ledgerClient, ledgerClient.credit, {
      userId: subscriber,
      paymentId: randomUUID(),
      packId: 'main',
      packName: 'Main',
      tokens: 1000,
    });
    await publish(
      outboxMessage(
        topics.identityUser,
        eventTypes.UserPlanChanged,
        events.UserPlanChanged,
        { userId: subscriber, subscriptionPlan: 'studio', subscriptionStatus: 'active' },
        { aggregateId: subscriber, occurredAt: new Date() },
      ),
    );
    await waitFor(
      async () =>
        (await imageSvc.context.pool.query('SELECT 1 FROM user_plans WHERE user_id = $1', [subscriber])).rowCount === 1,
      'the plan is known',
      60_000,
    );
  }, 180_000);
  afterAll(async () => {
    images?.close();
    ledgerClient?.close();
    await workerSvc?.stop();
    await imageSvc?.stop();
    await ledgerSvc?.stop();
    await bus?.close();
    await fake?.close();
    if (blobRoot) await rm(blobRoot, { recursive: true, force: true });
  });

  it('calls the provider with the key of the newest SettingsChanged at the next job, without a restart; a repeat changes nothing', async () => {
    assert.equal(await nextJobKey(), 'Bearer sk-env', "no operator key yet: the environment's");

    // The operator saves a key: the running worker's next job uses it.
    const version = Date.now();
    const set = keySet('sk-operator-1234', version);
    await publish(set);
    await waitFor(async () => Number((await kept())?.version) === version, 'the image service keeps the key', 60_000);
    const row = await kept();
    assert.ok(row?.sealed, 'kept sealed');
    assert.ok(!row.sealed.includes(Buffer.from('sk-operator-1234')), 'never in clear at rest');
    assert.equal(await nextJobKey(), 'Bearer sk-operator-1234');

    // A restarted worker reads the same key from the database.
    await workerSvc.stop();
    workerSvc = await startWorker();
    assert.equal(await nextJobKey(), 'Bearer sk-operator-1234', 'after a restart');

    // The operator clears it: the environment's key again.
    await publish(keyCleared(version + 1));
    await waitFor(async () => (await kept())?.sealed === null, 'the clear is kept', 60_000);
    assert.equal(await nextJobKey(), 'Bearer sk-env');

    // The set arrives again (a redelivery), then a later event on the same key (partition): once
    // that one is handled, the repeat was too, and it changed nothing.
    const before = await kept();
    await publish(set);
    const marker = settingsChanged(
      [
        {
          key: `${provider}_test_marker`,
          secret: false,
          value: 'x',
          encryptedValue: Buffer.alloc(0),
          masked: 'x',
          cleared: false,
        },
      ],
      version + 2,
    );
    await publish(marker);
    await waitFor(async () => (await handled(marker.eventId)) === 1, 'the event after the repeat is handled', 60_000);
    assert.deepEqual(await kept(), before, 'the repeat changed nothing');
    assert.equal(await handled(set.eventId), 1, 'handled once');
    assert.equal(await nextJobKey(), 'Bearer sk-env');
  });
});
