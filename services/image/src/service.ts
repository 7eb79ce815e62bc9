import { fileURLToPath } from 'node:url';
import {
  generationWorkQueue,
  registry,
  serviceTopics,
  type ServiceContext,
  type ServiceDefinition,
} from '@flatlay/platform';
import { Generations } from './app/generations.js';
import { consumedTopics, imageEventHandler } from './consumers/image-consumers.js';
import { envGenerativeSettings, GenerativeProvider } from './generative/index.js';
import { imageGrpcService } from './grpc/image-grpc.js';
import { imageParts, type ImageParts, type ImageServiceOptions } from './parts.js';
import { GenerationWorker } from './worker/generation-worker.js';

export type { ImageServiceOptions } from './parts.js';

// Migrations are SQL files; they are read from src/ in both the source and the built layout.
const migrationsDir = fileURLToPath(new URL('../src/db/migrations', import.meta.url));

async function startWorker(
  ctx: ServiceContext,
  parts: ImageParts,
  options: ImageServiceOptions,
  generations?: Generations,
) {
  const { config } = parts;
  const engine = options.engine ?? (async () => (await import('./engine/thread.js')).createThreadedEngine());
  const worker = new GenerationWorker({
    pool: ctx.pool,
    blobs: parts.blobs,
    ledger: parts.ledger,
    engine,
    generative: new GenerativeProvider({
      settings: options.generativeSettings ?? envGenerativeSettings(),
      logger: ctx.logger,
    }),
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
      const generations = new Generations({ ...base, pool: ctx.pool, logger: ctx.logger, clock: options.clock });
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
      const stops: Array<() => Promise<void>> = [async () => p.ledger.close()];
      const subscription = await ctx.bus.subscribe({
        groupId: options.consumerGroup ?? registry.image.consumes!.group,
        topics: consumedTopics,
        handle: imageEventHandler({ pool: ctx.pool, blobs: p.blobs, generations: p.generations, logger: ctx.logger }),
      });
      stops.push(() => subscription.close());
      if (options.inProcessWorker) stops.push(await startWorker(ctx, p, options, p.generations));
      return stops;
    },
  };
}

/**
 * The generation worker as its own process (the GPU pool): the image service's database and
 * queue, gRPC health only. It calls the ledger as the image service, to refund failed jobs.
 */
export function createGenerationWorkerService(options: ImageServiceOptions = {}): ServiceDefinition {
  return {
    name: 'image',
    migrationsDir,
    topics: serviceTopics('image'),
    grpc: () => [],
    async start(ctx) {
      const p = imageParts(ctx, options);
      const stopWorker = await startWorker(ctx, p, options);
      return [async () => p.ledger.close(), stopWorker];
    },
  };
}

/** The image service as configured by the environment (its own process, the chart's `image`). */
export const imageService = createImageService();
