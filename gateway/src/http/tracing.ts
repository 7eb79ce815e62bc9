import { randomFillSync } from 'node:crypto';
import {
  context,
  isSpanContextValid,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type SpanContext,
} from '@opentelemetry/api';
import type { RequestHandler } from 'express';
import { tracer, tracesExported } from '@flatlay/platform';

/**
 * One server span per request, continuing a caller's W3C trace when one is sent. The span is
 * active for the rest of the chain, so gRPC calls, logs and outbox events carry its trace id,
 * and the trace id is returned to the caller for support requests.
 *
 * Without an exporter (OTEL_EXPORTER_OTLP_ENDPOINT unset) nothing would ever read the span
 * itself, only its ids: the request then carries a span context alone (no span object, no
 * attributes, no end on finish), with the same ids, propagation and answer header (ADR 0510).
 */
export const traceRequests: RequestHandler = (req, res, next) => {
  if (!tracesExported()) return carryTraceIds(req, res, next);
  const parent = propagation.extract(context.active(), req.headers);
  const span = tracer('gateway').startSpan(
    `${req.method} ${req.baseUrl}${req.path.startsWith('/api') ? req.path.split('/').slice(0, 3).join('/') : ''}`,
    {
      kind: SpanKind.SERVER,
      attributes: {
        'http.request.method': req.method,
        'url.path': req.path,
        'flatlay.request_id': String(req.headers['x-request-id'] ?? ''),
      },
    },
    parent,
  );
  res.setHeader('traceparent', `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`);
  res.on('finish', () => {
    span.setAttribute('http.response.status_code', res.statusCode);
    if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
  context.with(trace.setSpan(parent, span), next);
};

/** The ids of a span that is not recorded: the caller's trace (when valid) or a new one, and a new span id. */
const carryTraceIds: RequestHandler = (req, res, next) => {
  const parent = req.headers.traceparent ? propagation.extract(context.active(), req.headers) : context.active();
  const caller = trace.getSpanContext(parent);
  const continued = caller && isSpanContextValid(caller) ? caller : undefined;
  const spanContext: SpanContext = {
    traceId: continued?.traceId ?? newId(16),
    spanId: newId(8),
    // As the SDK's parent-based sampler decides: a caller's decision holds downstream.
    traceFlags: continued ? continued.traceFlags : TraceFlags.SAMPLED,
    ...(continued?.traceState ? { traceState: continued.traceState } : {}),
  };
  res.setHeader('traceparent', `00-${spanContext.traceId}-${spanContext.spanId}-01`);
  context.with(trace.setSpan(parent, trace.wrapSpanContext(spanContext)), next);
};

/** Random ids in hex from a pool refilled 4 KiB at a time (one system call per ~170 requests). */
const pool = Buffer.allocUnsafe(4096);
const ZEROS = { 8: '0'.repeat(16), 16: '0'.repeat(32) };
let used = pool.length;
function newId(bytes: 8 | 16): string {
  for (;;) {
    if (used + bytes > pool.length) {
      randomFillSync(pool);
      used = 0;
    }
    const id = pool.toString('hex', used, used + bytes);
    used += bytes;
    // All zeros is not a valid id (W3C): about never, but then draw again.
    if (id !== ZEROS[bytes]) return id;
  }
}
