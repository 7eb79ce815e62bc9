import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { extractTraceContext, tracer } from '../telemetry.js';
import type { Delivery } from './bus.js';

/**
 * Runs a handler inside a consumer span that continues the producer's trace (from the
 * message's W3C headers), so a user's action can be followed across services. Both bus
 * adapters wrap every handler call in it.
 */
export function handleInSpan(
  groupId: string,
  delivery: Delivery,
  handle: (d: Delivery) => Promise<void>,
): Promise<void> {
  const parent = extractTraceContext(delivery.headers);
  const span = tracer('bus').startSpan(
    `${delivery.topic} process`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        'messaging.destination.name': delivery.topic,
        'messaging.consumer.group.name': groupId,
        'messaging.destination.partition.id': String(delivery.partition),
      },
    },
    parent,
  );
  return context
    .with(trace.setSpan(parent, span), () => handle(delivery))
    .then(
      () => span.end(),
      (error: unknown) => {
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
        span.end();
        throw error;
      },
    );
}
