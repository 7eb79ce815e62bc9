import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { RequestHandler } from 'express';
import { tracer } from '@flatlay/platform';

/**
 * One server span per request, continuing a caller's W3C trace when one is sent. The span is
 * active for the rest of the chain, so gRPC calls, logs and outbox events carry its trace id,
 * and the trace id is returned to the caller for support requests.
 */
export const traceRequests: RequestHandler = (req, res, next) => {
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
