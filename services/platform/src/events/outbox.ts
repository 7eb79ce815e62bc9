import type { Queryable } from '../db/pool.js';
import { injectTraceHeaders } from '../telemetry.js';
import { outboxWritten } from './outbox-wake.js';

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
 * The INSERT of outbox rows from six parameters starting at `$first` (topics, keys, ids,
 * types, envelopes, headers), shared by enqueueOutbox and the event store's single-statement
 * append. `guard` restricts the insert (e.g. to when a version check passed).
 */
export function outboxInsertSql(first: number, guard = 'TRUE', withStream = false): string {
  const p = (i: number) => `$${first + i}`;
  // With `withStream`, a seventh parameter gives each row's stream, which `guard` may test as m.stream.
  const stream = withStream ? `, ${p(6)}::text[]` : '';
  return `INSERT INTO outbox (topic, message_key, event_id, event_type, envelope, headers)
     SELECT topic, key, id, type, env, ${p(5)}::jsonb
     FROM unnest(${p(0)}::text[], ${p(1)}::text[], ${p(2)}::uuid[], ${p(3)}::text[], ${p(4)}::bytea[]${stream}) AS m(topic, key, id, type, env${withStream ? ', stream' : ''})
     WHERE ${guard}`;
}

/** The six parameters of outboxInsertSql. The active trace context is captured now, because the relay publishes later. */
export function outboxParams(messages: OutboxMessage[]): unknown[] {
  return [
    messages.map((m) => m.topic),
    messages.map((m) => m.key),
    messages.map((m) => m.eventId),
    messages.map((m) => m.eventType),
    messages.map((m) => Buffer.from(m.envelope)),
    JSON.stringify(injectTraceHeaders({})),
  ];
}

/** Writes messages to the outbox inside the caller's transaction. */
export async function enqueueOutbox(tx: Queryable, messages: OutboxMessage[]): Promise<void> {
  if (messages.length === 0) return;
  await tx.query(outboxInsertSql(1), outboxParams(messages));
  outboxWritten(tx);
}
