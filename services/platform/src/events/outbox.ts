import type { Queryable } from '../db/pool.js';
import { injectTraceHeaders } from '../telemetry.js';

export interface OutboxMessage {
  topic: string;
  /** Kafka key: the aggregate id, so one aggregate's events stay in order. */
  key: string;
  eventId: string;
  eventType: string;
  /** The encoded flatlay.events.v1.Envelope. */
  envelope: Uint8Array;
}

/**
 * Writes messages to the outbox inside the caller's transaction. The active trace context is
 * captured now, because the relay publishes later, outside the request.
 */
export async function enqueueOutbox(tx: Queryable, messages: OutboxMessage[]): Promise<void> {
  if (messages.length === 0) return;
  const headers = JSON.stringify(injectTraceHeaders({}));
  await tx.query(
    `INSERT INTO outbox (topic, message_key, event_id, event_type, envelope, headers)
     SELECT topic, key, id, type, env, $6::jsonb
     FROM unnest($1::text[], $2::text[], $3::uuid[], $4::text[], $5::bytea[]) AS m(topic, key, id, type, env)`,
    [
      messages.map((m) => m.topic),
      messages.map((m) => m.key),
      messages.map((m) => m.eventId),
      messages.map((m) => m.eventType),
      messages.map((m) => Buffer.from(m.envelope)),
      headers,
    ],
  );
}
