import { fileURLToPath } from 'node:url';
import {
  generationWorkQueue,
  KafkaBus,
  loadConfig,
  loadSettingsKey,
  meter,
  registry,
  serviceTopics,
  type ServiceContext,
  type ServiceDefinition,
} from '@flatlay/platform';
import { analyticsEventHandler, type ProjectionClock } from './consumers/analytics-consumer.js';
import { analyticsGrpcService } from './grpc/analytics-grpc.js';
import { clusterAccess, outsideCluster, readGpuPool, type GpuPool } from './adapters/gpu-pool.js';
import { OperatorSettings } from './adapters/settings-store.js';
import { gpuPoolEnvSchema, loadSettingsConfig, type SettingsConfig } from './config.js';

export interface AnalyticsOptions {
  /** "Now" of every figure (tests fix it). */
  clock?: () => Date;
  /** Settings that win over the environment (tests, the embedded default's key file). */
  settings?: Partial<Record<keyof SettingsConfig, string>>;
  /** Another consumer group (tests sharing one Kafka run their own). */
  consumerGroup?: string;
  /** How the GPU pool is read (tests: a fake API server); default: the pod's service account, if any. */
  gpuPool?: (ctx: ServiceContext) => () => Promise<GpuPool>;
}

/** In a pod: the Kubernetes API (nodes, worker pods) and the work queue's lag; elsewhere "not in a cluster". */
function gpuPoolOf(ctx: ServiceContext): () => Promise<GpuPool> {
  const cluster = clusterAccess(process.env);
  if (!cluster) return async () => outsideCluster;
  const bus = ctx.bus;
  const selectors = loadConfig(gpuPoolEnvSchema, process.env);
  return () =>
    readGpuPool({
      ...cluster,
      nodeSelector: selectors.GPU_NODE_SELECTOR,
      workerSelector: selectors.GPU_WORKER_SELECTOR,
      queueLag: async () => {
        if (!(bus instanceof KafkaBus)) throw new Error('the bus is not Kafka');
        return bus.consumerLag(generationWorkQueue.group, generationWorkQueue.topic);
      },
    });
}

export function createAnalyticsService(options: AnalyticsOptions = {}): ServiceDefinition {
  const clock = options.clock ?? (() => new Date());
  // One settings store per service context: made in start(), which runs before grpc().
  const settingsOf = new WeakMap<ServiceContext, OperatorSettings>();
  return {
    name: 'analytics',
    // Migrations are SQL files; they are read from src/ in both the source and the built layout.
    migrationsDir: fileURLToPath(new URL('../src/db/migrations', import.meta.url)),
    topics: serviceTopics('analytics'),
    grpc: (ctx) => {
      const settings = settingsOf.get(ctx);
      if (!settings) throw new Error('analytics: start() must run before grpc()');
      return [analyticsGrpcService(ctx, clock, settings, (options.gpuPool ?? gpuPoolOf)(ctx))];
    },
    async start(ctx) {
      const config = loadSettingsConfig(options.settings);
      const key = await loadSettingsKey({
        key: config.SETTINGS_ENCRYPTION_KEY,
        keyFile: config.SETTINGS_ENCRYPTION_KEY_FILE,
      });
      if (!key) ctx.logger.warn('SETTINGS_ENCRYPTION_KEY is not set: operator secrets cannot be saved');
      settingsOf.set(ctx, new OperatorSettings(ctx.pool, config, key));
      const projection: ProjectionClock = {};
      // How far behind the events the read models are: now minus the newest event absorbed.
      const lag = meter('flatlay.analytics').createObservableGauge('flatlay.analytics.projection_lag', {
        unit: 's',
        description: 'Seconds between now and the newest event the analytics read models have absorbed',
      });
      const observe = (result: { observe(value: number): void }) => {
        if (projection.newestEventAt) result.observe((clock().getTime() - projection.newestEventAt.getTime()) / 1000);
      };
      lag.addCallback(observe);
      const { consumes } = registry.analytics;
      const subscription = await ctx.bus.subscribe({
        groupId: options.consumerGroup ?? consumes!.group,
        topics: consumes!.topics,
        handle: analyticsEventHandler(ctx.pool, projection),
        logger: ctx.logger,
      });
      return [() => subscription.close(), async () => lag.removeCallback(observe)];
    },
  };
}

export const analyticsService: ServiceDefinition = createAnalyticsService();
