import { fileURLToPath } from 'node:url';
import { meter, registry, serviceTopics, type ServiceDefinition } from '@flatlay/platform';
import { analyticsEventHandler, type ProjectionClock } from './consumers/analytics-consumer.js';
import { analyticsGrpcService } from './grpc/analytics-grpc.js';

export interface AnalyticsOptions {
  /** "Now" of every figure (tests fix it). */
  clock?: () => Date;
}

export function createAnalyticsService(options: AnalyticsOptions = {}): ServiceDefinition {
  const clock = options.clock ?? (() => new Date());
  return {
    name: 'analytics',
    // Migrations are SQL files; they are read from src/ in both the source and the built layout.
    migrationsDir: fileURLToPath(new URL('../src/db/migrations', import.meta.url)),
    topics: serviceTopics('analytics'),
    grpc: (ctx) => [analyticsGrpcService(ctx, clock)],
    async start(ctx) {
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
        groupId: consumes!.group,
        topics: consumes!.topics,
        handle: analyticsEventHandler(ctx.pool, projection),
      });
      return [() => subscription.close(), async () => lag.removeCallback(observe)];
    },
  };
}

export const analyticsService: ServiceDefinition = createAnalyticsService();
