import { fileURLToPath } from 'node:url';
import {
  generationWorkQueue,
  registry,
  serviceTopics,
  type ServiceContext,
  type ServiceDefinition,
} from '@flatlay/platform';
import { startBlobDeletionSweeper } from './app/blob-deletions.js';
import { startChargeSweeper } from './app/charge-sweeper.js';
import { Generations } from './app/generations.js';
import { GuestRetention } from './app/guest-tries.js';
import { settingOf } from './adapters/sealed-settings-store.js';
import { consumedTopics, imageEventHandler } from './consumers/image-consumers.js';
import { settingsEventHandler, settingsTopic } from './consumers/settings-consumer.js';
import {
  GenerativeProvider,
  generativeEnvFrom,
  OperatorGenerativeSettings,
  settingsKeyFrom,
} from './adapters/generative/index.js';
import { imageGrpcService } from './grpc/image-grpc.js';
import { imageParts, type ImageParts, type ImageServiceOptions } from './service-options.js';
import { GenerationWorker } from './app/generation-worker.js';
import { trackGenerationQueue } from './app/image-metrics.js';

export type { ImageServiceOptions } from './service-options.js';

// Migrations are SQL files; they are read from src/ in both the source and the built layout.
const migrationsDir = fileURLToPath(new URL('../src/db/migrations', import.meta.url));

/**
 * The worker's generative settings (ADR 0103): the given source, else the operator's key as the
 * settings consumer kept it in this database, over GENERATIVE_* (read and checked here, at start).
 */
function generativeSettings(ctx: ServiceContext, parts: ImageParts, options: ImageServiceOptions) {
  const { config } = parts;
  return (
    options.generativeSettings ??
    new OperatorGenerativeSettings({
      env: generativeEnvFrom({ ...process.env, ...options.config }),
      provider: config.GENERATIVE_PROVIDER,
      read: (key) => settingOf(ctx.pool, key),
      settingsKey: settingsKeyFrom(config),
      logger: ctx.logger,
    })
  );
}

async function startWorker(
  ctx: ServiceContext,
  parts: ImageParts,
  options: ImageServiceOptions,
  generations?: Generations,
) {
  const { config } = parts;
  if (config.IMAGE_ENGINE === 'instant' && process.env.NODE_ENV === 'production')
    throw new Error('IMAGE_ENGINE=instant is a stand-in for tests: NODE_ENV=production runs the real engine');
  const engine =
    options.engine ??
    (config.IMAGE_ENGINE === 'instant'
      ? async () => (await import('./adapters/instant-engine.js')).instantEngine
      : async () => (await import('./engine/thread.js')).createThreadedEngine());
  const worker = new GenerationWorker({
    pool: ctx.pool,
    blobs: parts.blobs,
    ledger: parts.ledger,
    engine,
    generative: new GenerativeProvider({ settings: generativeSettings(ctx, parts, options), logger: ctx.logger }),
    logger: ctx.logger,
    policy: parts.policy,
    concurrency: config.GENERATION_CONCURRENCY,
    sweepIntervalMs: config.GENERATION_SWEEP_INTERVAL_MS,
    sweepGraceMs: config.GENERATION_SWEEP_GRACE_MS,
    clock: options.clock,
  });
  await worker.start(ctx.bus, {
    topic: generationWorkQueue.topic,
    group: options.workerGroup ?? config.GENERATION_CONSUMER_GROUP,
  });
  generations?.whenQueued((imageId) => worker.offer(imageId));
  ctx.logger.info({ worker: worker.id, concurrency: config.GENERATION_CONCURRENCY }, 'generation worker started');
  return () => worker.stop();
}

/**
 * The image service: uploads into generation jobs, the gallery, locks and unlocks. With
 * `inProcessWorker` it also runs one generation worker (the embedded default).
 */
export function createImageService(options: ImageServiceOptions = {}): ServiceDefinition {
  const partsOf = new WeakMap<ServiceContext, ImageParts & { generations: Generations }>();
  const parts = (ctx: ServiceContext) => {
    let p = partsOf.get(ctx);
    if (!p) {
      const base = imageParts(ctx, options);
      const generations = new Generations({
        ...base,
        pool: ctx.pool,
        logger: ctx.logger,
        clock: options.clock,
        // Who may add an instruction (advanced prompting, #28) follows the worker's own settings.
        generativeSettings: generativeSettings(ctx, base, options),
      });
      p = { ...base, generations };
      partsOf.set(ctx, p);
    }
    return p;
  };
  return {
    name: 'image',
    migrationsDir,
    topics: serviceTopics('image'),
    grpc: (ctx) => [imageGrpcService(ctx, parts(ctx).generations)],
    async start(ctx) {
      const p = parts(ctx);
      const untrackQueue = trackGenerationQueue(ctx.pool);
      const stops: Array<() => Promise<void>> = [async () => p.ledger.close(), async () => untrackQueue()];
      const events = imageEventHandler({
        pool: ctx.pool,
        blobs: p.blobs,
        generations: p.generations,
        logger: ctx.logger,
      });
      // The operator's generative key, kept in this database, where every worker reads it at its
      // next job (workers consume only the work queue: ADR 0103).
      const settings = settingsEventHandler({
        pool: ctx.pool,
        logger: ctx.logger,
        provider: p.config.GENERATIVE_PROVIDER,
      });
      const subscription = await ctx.bus.subscribe({
        groupId: options.consumerGroup ?? registry.image.consumes!.group,
        topics: [...consumedTopics, settingsTopic],
        handle: (delivery) => (delivery.topic === settingsTopic ? settings(delivery) : events(delivery)),
        logger: ctx.logger,
      });
      stops.push(() => subscription.close());
      let offer: ((imageId: string) => void) | undefined;
      if (options.inProcessWorker) {
        stops.push(await startWorker(ctx, p, options, p.generations));
        offer = (imageId) => p.generations.offerQueued(imageId);
      }
      // Files of deleted rows, recorded in the rows' transaction and deleted after it (issue 27).
      stops.push(
        startBlobDeletionSweeper({
          pool: ctx.pool,
          blobs: p.blobs,
          logger: ctx.logger,
          intervalMs: p.config.GENERATION_SWEEP_INTERVAL_MS,
        }),
      );
      stops.push(
        startChargeSweeper({
          pool: ctx.pool,
          ledger: p.ledger,
          policy: p.policy,
          logger: ctx.logger,
          intervalMs: p.config.GENERATION_SWEEP_INTERVAL_MS,
          graceMs: p.config.GENERATION_SWEEP_GRACE_MS,
          clock: options.clock,
          onQueued: offer,
          unlocked: (tx, image, userId, via, charged) => p.generations.unlocked(tx, image, userId, via, charged),
        }),
      );
      // Guests' tries past their retention go, files and rows (ADR 0105). Every instance may sweep:
      // each try is deleted under its row lock, and deleting again changes nothing.
      const retention = new GuestRetention({
        pool: ctx.pool,
        blobs: p.blobs,
        logger: ctx.logger,
        retentionDays: p.config.ANON_RETENTION_DAYS,
        clock: options.clock,
      });
      stops.push(retention.start(p.config.ANON_RETENTION_SWEEP_SECONDS * 1000));
      return stops;
    },
  };
}

/**
 * The generation worker as its own process (the GPU pool): the image service's database and
 * queue, gRPC health only. It calls the ledger as `image-worker`, with a key of its own that may
 * only refund failed jobs (it parses untrusted images: ADR 0008), and reads the operator's
 * generative key where the image service keeps it (that database).
 */
export function createGenerationWorkerService(options: ImageServiceOptions = {}): ServiceDefinition {
  return {
    name: 'image',
    caller: 'image-worker',
    migrationsDir,
    topics: serviceTopics('image'),
    grpc: () => [],
    async start(ctx) {
      const p = imageParts(ctx, options, { signsUrls: false });
      const stopWorker = await startWorker(ctx, p, options);
      return [async () => p.ledger.close(), stopWorker];
    },
  };
}

/** The image service as configured by the environment (its own process, the chart's `image`). */
export const imageService = createImageService();
