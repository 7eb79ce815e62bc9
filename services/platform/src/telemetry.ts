import { context, metrics, propagation, trace, type Context } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace-node';

let provider: NodeTracerProvider | undefined;
let exporting = false;

/**
 * Starts tracing once per process. Spans are exported over OTLP/HTTP only when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set; otherwise trace ids still flow through logs,
 * gRPC metadata and Kafka headers, which is what correlating a user's action needs.
 */
export function startTelemetry(serviceName: string, endpoint = process.env.OTEL_EXPORTER_OTLP_ENDPOINT): void {
  if (provider) return;
  const spanProcessors: SpanProcessor[] = endpoint
    ? [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, '')}/v1/traces` }))]
    : [];
  provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    spanProcessors,
  });
  provider.register({ propagator: new W3CTraceContextPropagator() });
  exporting = spanProcessors.length > 0;
}

/**
 * Whether spans leave this process (an OTLP endpoint is set). When none does, a span's only
 * use is its ids, and a caller may carry just those (see the gateway's traceRequests).
 */
export function tracesExported(): boolean {
  return exporting;
}

export async function stopTelemetry(): Promise<void> {
  await provider?.shutdown();
  provider = undefined;
  exporting = false;
}

export const tracer = (name = 'flatlay') => trace.getTracer(name);

/** Writes the active trace context into a plain header map (Kafka headers, outbox rows). */
export function injectTraceHeaders(
  headers: Record<string, string> = {},
  ctx: Context = context.active(),
): Record<string, string> {
  propagation.inject(ctx, headers);
  return headers;
}

/** Reads a trace context from a plain header map. */
export function extractTraceContext(headers: Record<string, string | undefined>): Context {
  return propagation.extract(context.active(), headers);
}

/**
 * The process's meter, from the MeterProvider registered now (startMetrics, ADR 0014); before one
 * is, a no-op meter whose instruments stay no-ops. Code that may run before its process starts
 * metrics takes its instruments through `instrument` (metrics/instruments.ts) instead.
 */
export const meter = (name = 'flatlay') => metrics.getMeter(name);
