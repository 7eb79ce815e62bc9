import { randomUUID } from 'node:crypto';
import { events } from '@flatlay/proto';
import { decodeOrPoison } from '../bus/dead-letters.js';
import type { OutboxMessage } from './outbox.js';

/** What ts-proto generates for every message: enough to encode, decode and name it. */
export interface MessageType<T> {
  encode(message: T): { finish(): Uint8Array };
  decode(input: Uint8Array): T;
  fromPartial(object: unknown): T;
}

export interface EventMeta {
  aggregateId: string;
  aggregateVersion?: number;
  eventId?: string;
  causationId?: string;
  correlationId?: string;
  occurredAt: Date;
}

/** Wraps a protobuf event in the envelope and addresses it to its topic, keyed by aggregate. */
export function outboxMessage<T>(
  topic: string,
  typeName: string,
  type: MessageType<T>,
  payload: T,
  meta: EventMeta,
): OutboxMessage {
  const eventId = meta.eventId ?? randomUUID();
  const envelope = events.Envelope.encode({
    eventId,
    type: typeName,
    occurredAt: meta.occurredAt,
    aggregateId: meta.aggregateId,
    aggregateVersion: meta.aggregateVersion ?? 0,
    causationId: meta.causationId ?? '',
    correlationId: meta.correlationId ?? eventId,
    payload: Buffer.from(type.encode(payload).finish()),
  }).finish();
  return { topic, key: meta.aggregateId, eventId, eventType: typeName, envelope };
}

/** The envelope of a message; bytes that are no envelope make a PoisonMessage (its dead letter, not a retry). */
export const decodeEnvelope = (value: Uint8Array): events.Envelope =>
  decodeOrPoison('event envelope', () => {
    const envelope = events.Envelope.decode(value);
    // Protobuf decodes many stray bytes into an empty message: one without an id or type is none.
    if (!envelope.eventId || !envelope.type) throw new Error('no event id or type');
    return envelope;
  });

/** An event's payload; bytes that do not decode as `type` make a PoisonMessage. */
export const decodePayload = <T>(type: MessageType<T>, payload: Uint8Array): T =>
  decodeOrPoison('event payload', () => type.decode(payload));
