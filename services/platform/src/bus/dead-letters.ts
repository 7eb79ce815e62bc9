import type { BusMessage, Delivery } from './bus.js';

/**
 * Thrown by a handler (or by decoding) when a message can never be handled, however often it is
 * offered: its bytes do not decode, or its content is one the handler refuses as invalid. The bus
 * moves such a message to its group's dead-letter topic and goes on with the partition (ADR 0009).
 * Every other error is taken as passing (a database, broker or called service that is down, or a
 * bug that a deploy fixes) and retried without limit: a money event is never dropped on a guess.
 */
export class PoisonMessage extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PoisonMessage';
  }
}

/** Whether an error says the message itself is bad (by class, or by name across module copies). */
export const isPoison = (error: unknown): boolean =>
  error instanceof PoisonMessage || (error instanceof Error && error.name === 'PoisonMessage');

/** Decodes bytes with a generated protobuf type; bytes that do not decode make a PoisonMessage. */
export function decodeOrPoison<T>(what: string, decode: () => T): T {
  try {
    return decode();
  } catch (error) {
    throw new PoisonMessage(`${what} does not decode: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}

/** The dead-letter topic of one consumer group for one source topic. */
export const deadLetterTopic = (topic: string, groupId: string) => `${topic}.dlq.${groupId}`;
const DLQ_MARK = '.dlq.';
export const isDeadLetterTopic = (topic: string) => topic.includes(DLQ_MARK);
/** The source topic and group of a dead-letter topic's name. */
export function parseDeadLetterTopic(name: string): { topic: string; groupId: string } | undefined {
  const at = name.lastIndexOf(DLQ_MARK);
  if (at <= 0) return undefined;
  return { topic: name.slice(0, at), groupId: name.slice(at + DLQ_MARK.length) };
}

/** Headers a dead letter carries besides the original ones. */
export const deadLetterHeaders = {
  error: 'flatlay-dlq-error',
  topic: 'flatlay-dlq-topic',
  partition: 'flatlay-dlq-partition',
  offset: 'flatlay-dlq-offset',
  group: 'flatlay-dlq-group',
  at: 'flatlay-dlq-at',
} as const;

/** The dead letter of a delivery: same key, value and headers, plus why, where from and when. */
export function deadLetterOf(delivery: Delivery, groupId: string, error: unknown, at = new Date()): BusMessage {
  const reason = error instanceof Error ? error.message : String(error);
  return {
    topic: deadLetterTopic(delivery.topic, groupId),
    key: delivery.key,
    value: delivery.value,
    headers: {
      ...delivery.headers,
      [deadLetterHeaders.error]: reason.slice(0, 1_000),
      [deadLetterHeaders.topic]: delivery.topic,
      [deadLetterHeaders.partition]: String(delivery.partition),
      [deadLetterHeaders.offset]: String(delivery.offset),
      [deadLetterHeaders.group]: groupId,
      [deadLetterHeaders.at]: at.toISOString(),
    },
  };
}

/** The message a replay publishes: the original one, on its source topic, without the dead-letter headers. */
export function replayOf(deadLetter: BusMessage): BusMessage | undefined {
  const source = deadLetter.headers[deadLetterHeaders.topic] ?? parseDeadLetterTopic(deadLetter.topic)?.topic;
  if (!source) return undefined;
  const dlq = new Set<string>(Object.values(deadLetterHeaders));
  const headers = Object.fromEntries(Object.entries(deadLetter.headers).filter(([k]) => !dlq.has(k)));
  return { topic: source, key: deadLetter.key, value: deadLetter.value, headers };
}

/** One group's dead letters of one source topic that nobody has replayed or discarded yet. */
export interface DeadLetterSummary {
  /** The dead-letter topic, `<topic>.dlq.<group>`. */
  deadLetterTopic: string;
  topic: string;
  groupId: string;
  count: number;
  /** When the oldest waiting dead letter was written (absent when none waits). */
  oldestAt?: string;
  /** The error of the newest waiting dead letter. */
  lastError?: string;
}

/** What a bus offers an operator over its dead letters (ADR 0009). */
export interface DeadLetterAdmin {
  /** Every dead-letter topic with its waiting letters (count 0 included once one existed). */
  listDeadLetters(): Promise<DeadLetterSummary[]>;
  /** Publishes up to `limit` waiting letters again on their source topic, oldest first; returns how many. */
  replayDeadLetters(deadLetterTopic: string, limit?: number): Promise<number>;
  /** Marks up to `limit` waiting letters as dealt with, without publishing them; returns how many. */
  discardDeadLetters(deadLetterTopic: string, limit?: number): Promise<number>;
}

/** Back-off before the next attempt of a message whose handler failed `attempt` times in a row. */
export function retryDelay(attempt: number, baseMs: number, maxMs: number): number {
  const exp = Math.min(maxMs, baseMs * 2 ** Math.min(attempt - 1, 20));
  return Math.max(baseMs, Math.round(exp));
}
