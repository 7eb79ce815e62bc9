// A generation worker run as its own process (as the chart's image-worker), killed with SIGKILL
// while a job is in the engine: no cleanup runs, the job stays `running` under the dead worker's
// lease. A restarted worker process takes it up again once the lease runs out and completes it;
// the user is charged exactly once (the charge is taken before queueing and never again).
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { image, ledger } from '@flatlay/proto';
import {
  call,
  createClient,
  createLogger,
  InProcessBus,
  publicKeysOf,
  startService,
  type CallerName,
  type RunningService,
} from '@flatlay/platform';
import { ledgerService } from '@flatlay/ledger';
import { serviceKeyEnv, testCredential, testServiceKeys, testUrlSigningKey } from '../../platform/test/process.js';
import { requireEnv, testKafkaBus, type TestKafkaBus, waitFor } from '../../platform/test/support.js';
import { FolderBlobStore } from '@flatlay/files';
import { createImageService } from '../src/service.js';
import { generateTestPhoto } from './support/generate.js';

const silent = createLogger('image-test', 'silent');
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const workerScript = fileURLToPath(new URL('./support/worker-process.ts', import.meta.url));

describe('a worker process killed mid-job', { timeout: 180_000 }, () => {
  // One deployment's keys for this process's services and the worker processes (real credentials:
  // the worker signs as image-worker with its own key).
  const keysOf = (caller: CallerName) => ({
    privateKey: testServiceKeys[caller].privateKey,
    publicKeys: publicKeysOf(testServiceKeys),
  });
  const run = randomUUID().slice(0, 8);
  const database = `flatlay_image_kill_test_${run}`;
  const children: ChildProcess[] = [];
  let ledgerSvc: RunningService;
  let imageSvc: RunningService;
  let bus: TestKafkaBus;
  let dataDir: string;
  let images: image.ImageServiceClient;
  let ledgerClient: ledger.LedgerServiceClient;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'flatlay-kill-'));
    bus = testKafkaBus('image-kill-test');
    ledgerSvc = await startService(ledgerService, {
      databaseUrl: requireEnv('DATABASE_URL'),
      database: `flatlay_ledger_kill_test_${run}`,
      bus: new InProcessBus(),
      grpcPort: 0,
      logger: silent,
      serviceKeys: keysOf('ledger'),
    });
    // The image service without a worker of its own: only the worker processes run jobs.
    imageSvc = await startService(
      createImageService({
        blobs: new FolderBlobStore(join(dataDir, 'blobs')),
        ledgerAddress: () => `127.0.0.1:${ledgerSvc.port}`,
        consumerGroup: `image-kill-test-${run}`,
        config: { IMAGE_URL_SIGNING_KEY: testUrlSigningKey },
      }),
      {
        databaseUrl: requireEnv('DATABASE_URL'),
        database,
        bus,
        grpcPort: 0,
        logger: silent,
        serviceKeys: keysOf('image'),
      },
    );
    images = createClient(image.ImageServiceClient, `127.0.0.1:${imageSvc.port}`, testCredential('gateway'));
    ledgerClient = createClient(ledger.LedgerServiceClient, `127.0.0.1:${ledgerSvc.port}`, testCredential('gateway'));
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    images?.close();
    ledgerClient?.close();
    await imageSvc?.stop();
    await ledgerSvc?.stop();
    await bus?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Starts `services/image/dist/worker.js`'s composition in a new process; resolves when it is up. */
  async function startWorkerProcess(engine: 'hang' | 'complete') {
    // The blob folder this test's image service uses, not the S3 server `npm test` announces.
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('S3_')));
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', workerScript], {
      cwd: repoRoot,
      env: {
        ...env,
        TEST_ENGINE: engine,
        DATABASE_URL: requireEnv('DATABASE_URL'),
        TEST_DATABASE: database,
        KAFKA_BROKERS: requireEnv('KAFKA_BROKERS'),
        KAFKA_TOPIC_PREFIX: bus.prefix, // this test's topics
        // Its own key, and no URL-signing key: a worker signs no file URL.
        ...serviceKeyEnv('image-worker'),
        FLATLAY_DATA_DIR: dataDir,
        LEDGER_ADDR: `127.0.0.1:${ledgerSvc.port}`,
        GENERATION_CONSUMER_GROUP: `image-worker-kill-test-${run}`,
        // A short lease, so the restarted worker need not wait the production 5 minutes.
        GENERATION_LEASE_SECONDS: '2',
        GENERATION_SWEEP_INTERVAL_MS: '100',
        GENERATION_SWEEP_GRACE_MS: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    child.stdout!.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr!.on('data', (d: Buffer) => {
      output += d.toString();
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((ok) =>
      child.once('exit', (code, signal) => ok({ code, signal })),
    );
    await waitFor(
      () => {
        if (child.exitCode !== null) throw new Error(`the worker process exited: ${output}`);
        return output.includes('worker ready');
      },
      'the worker process is up',
      60_000,
    );
    return { child, exited, output: () => output };
  }

  const jobOf = async (imageId: string) =>
    (
      await imageSvc.context.pool.query(
        'SELECT status, attempts, worker, lease_expires_at FROM generation_jobs WHERE image_id = $1',
        [imageId],
      )
    ).rows[0];

  it('SIGKILL during the engine run, then a restart: the job completes, charged once', async () => {
    const userId = randomUUID();
    await call(ledgerClient, ledgerClient.openAccount, { userId });
    const created = await generateTestPhoto(images, new FolderBlobStore(join(dataDir, 'blobs')), { userId });
    assert.equal(created.tokensUsed, 100);

    const first = await startWorkerProcess('hang');
    await waitFor(() => first.output().includes('engine started'), 'the job reaches the engine', 60_000).catch(
      async (error) => {
        throw new Error(
          `${error.message}; job ${JSON.stringify(await jobOf(created.imageId))}; worker said: ${first.output()}`,
        );
      },
    );
    const inFlight = await jobOf(created.imageId);
    assert.equal(inFlight.status, 'running');
    assert.equal(inFlight.attempts, 1);
    first.child.kill('SIGKILL');
    assert.deepEqual(await first.exited, { code: null, signal: 'SIGKILL' });
    // Nothing ran on the way out: the job is still the dead worker's.
    assert.deepEqual(
      { status: (await jobOf(created.imageId)).status, worker: (await jobOf(created.imageId)).worker },
      { status: 'running', worker: inFlight.worker },
    );

    const restarted = await startWorkerProcess('complete');
    await waitFor(
      async () =>
        (await call(images, images.getStatus, { userId, imageId: created.imageId })).image?.status === 'completed',
      'the restarted worker completes the job',
      60_000,
    );
    restarted.child.kill('SIGTERM');
    await restarted.exited;

    const done = await jobOf(created.imageId);
    assert.equal(done.status, 'succeeded');
    assert.equal(done.attempts, 2, 'the second attempt, by the restarted process');
    const balance = await call(ledgerClient, ledgerClient.getBalance, { userId });
    assert.equal(balance.balance, 100, 'charged once, never refunded');
    const history = (await call(ledgerClient, ledgerClient.listTransactions, { userId, limit: 100 })).transactions.map(
      (t) => t.description,
    );
    assert.equal(history.filter((d) => d === 'Image enhancement').length, 1, history.join(', '));
    assert.equal(history.filter((d) => /refund/i.test(d)).length, 0, history.join(', '));
  });
});
