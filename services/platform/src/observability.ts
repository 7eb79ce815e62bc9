// What every process starts before anything else: traces, its logger and its metrics, so the
// instruments of the gRPC server, the bus and the outbox record from the first call. One place,
// so the gateway, each service and the all-in-one process are seen alike (docs/operations.md).
import type { Logger } from './logger.js';
import { createLogger } from './logger.js';
import { type RunningMetrics, startMetrics } from './metrics/provider.js';
import { startTelemetry } from './telemetry.js';

export interface ObservabilityOptions {
  /** The process's name in traces, logs and (unless metricsName is given) metrics. */
  name: string;
  /** `service.name` of the metrics when it differs (a service's gRPC caller name). */
  metricsName?: string;
  logLevel?: string;
  /** Where `/metrics` is served (METRICS_PORT: a port, 0 for any free one, or 'off'). */
  metricsPort: number | 'off';
  host?: string;
}

export async function startObservability(
  options: ObservabilityOptions,
): Promise<{ logger: Logger; metrics: RunningMetrics }> {
  startTelemetry(options.name);
  const logger = createLogger(options.name, options.logLevel);
  const metrics = await startMetrics({
    serviceName: options.metricsName ?? options.name,
    port: options.metricsPort,
    host: options.host,
    otlpEndpoint: process.env.OTEL_EXPORTER_OTLP_ENDPOINT,
  });
  if (metrics.port !== undefined) logger.info({ port: metrics.port }, 'serving metrics at /metrics');
  return { logger, metrics };
}
