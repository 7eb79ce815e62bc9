// The process's MeterProvider: one per process, read by Prometheus on a port of its own
// (METRICS_PORT) and pushed over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set (ADR 0014).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { metrics } from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, type MetricReader, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { z } from 'zod';
import { METER_NAME, defineObservablesOn } from './instruments.js';

/** The default metrics port: OpenTelemetry's Prometheus exporter's own. */
export const DEFAULT_METRICS_PORT = 9464;

/** METRICS_PORT: a port, `0` for any free one, or `off`. */
export const metricsEnvSchema = z.object({
  METRICS_PORT: z
    .union([z.literal('off'), z.coerce.number().int().min(0).max(65535)])
    .default(DEFAULT_METRICS_PORT)
    .meta({
      description:
        'the port whose `/metrics` serves this process\'s metrics to Prometheus (OpenTelemetry\'s Prometheus exporter; docs/operations.md, "Metrics"); `0` takes any free port (logged), `off` serves none. A process that cannot bind it stops at start. With `OTEL_EXPORTER_OTLP_ENDPOINT` set, metrics are also pushed there every 60 s',
    }),
});

export interface MetricsOptions {
  /** `service.name` of the process's resource. */
  serviceName: string;
  /** Where `/metrics` is served; `off`: nowhere (OTLP export may still run). */
  port: number | 'off';
  host?: string;
  /** An OTLP/HTTP base URL; metrics go to `<endpoint>/v1/metrics`. */
  otlpEndpoint?: string;
  /** How often metrics are pushed over OTLP (default 60 s). */
  otlpIntervalMs?: number;
}

export interface RunningMetrics {
  /** The port `/metrics` is served on, or undefined when none is. */
  port: number | undefined;
  /** `http://<host>:<port>/metrics` for the person at the terminal (undefined when none is served). */
  url: string | undefined;
  stop(): Promise<void>;
}

let running: { provider: MeterProvider; server?: Server } | undefined;

/**
 * Starts the process's metrics once: a MeterProvider registered as the global one (so every
 * instrument of the platform and the services records into it), a Prometheus exporter read over
 * HTTP at `/metrics` (fails if the port is taken), and an OTLP reader when an endpoint is given.
 */
export async function startMetrics(options: MetricsOptions): Promise<RunningMetrics> {
  if (running) throw new Error('metrics are already started in this process');
  const readers: MetricReader[] = [];
  // The exporters bring their own copy of sdk-metrics (OpenTelemetry's 0.223.0 line pins 2.12.0):
  // its MetricReader is the same class, but TypeScript sees two declarations of its private parts.
  const prometheus =
    options.port === 'off' ? undefined : new PrometheusExporter({ preventServerStart: true, withoutScopeInfo: true });
  if (prometheus) readers.push(prometheus as unknown as MetricReader);
  const endpoint = options.otlpEndpoint?.replace(/\/$/, '');
  if (endpoint)
    readers.push(
      new PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter({ url: `${endpoint}/v1/metrics` }) as never,
        exportIntervalMillis: options.otlpIntervalMs ?? 60_000,
      }),
    );
  const provider = new MeterProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName }),
    readers,
  });
  let server: Server | undefined;
  if (prometheus && options.port !== 'off') {
    server = createServer((req, res) => {
      if (req.method === 'GET' && (req.url === '/metrics' || req.url?.startsWith('/metrics?')))
        return prometheus.getMetricsRequestHandler(req, res);
      res.statusCode = 404;
      res.end('Metrics are at /metrics\n');
    });
    const port = options.port;
    await new Promise<void>((ok, fail) => {
      server!.once('error', (error) => {
        void provider.shutdown();
        fail(new Error(`cannot serve metrics on port ${port} (METRICS_PORT): ${error.message}`, { cause: error }));
      });
      server!.listen(port, options.host ?? '0.0.0.0', ok);
    });
  }
  metrics.setGlobalMeterProvider(provider);
  running = { provider, server };
  defineObservablesOn(provider.getMeter(METER_NAME));
  const port = server ? (server.address() as AddressInfo).port : undefined;
  const shownHost = !options.host || options.host === '0.0.0.0' || options.host === '::' ? 'localhost' : options.host;
  return {
    port,
    url: port === undefined ? undefined : `http://${shownHost}:${port}/metrics`,
    stop: stopMetrics,
  };
}

/** Stops serving and exporting (a last OTLP push included), and leaves the no-op provider behind. */
export async function stopMetrics(): Promise<void> {
  const current = running;
  if (!current) return;
  running = undefined;
  defineObservablesOn(undefined);
  metrics.disable();
  current.server?.closeAllConnections();
  await new Promise<void>((ok) => (current.server ? current.server.close(() => ok()) : ok()));
  await current.provider.shutdown().catch(() => undefined);
}
