import type { Logger } from '../logger.js';

/** One message on a topic. The key decides the partition, so one key's messages keep their order. */
export interface BusMessage {
  topic: string;
  key: string;
  value: Buffer;
  headers: Record<string, string>;
}

export interface Delivery extends BusMessage {
  partition: number;
  offset: number;
}

export interface TopicSpec {
  name: string;
  partitions: number;
}

export interface SubscribeOptions {
  /** Consumers of one group share the topic's partitions; each message goes to one of them. */
  groupId: string;
  topics: string[];
  /**
   * Handles one message. The message counts as consumed only when this resolves. If it throws a
   * PoisonMessage, the message goes to the group's dead-letter topic (`<topic>.dlq.<group>`) and
   * the partition moves on; any other error offers the same message again after a back-off, its
   * partition waiting meanwhile (and only its partition: the group's others keep moving).
   */
  handle(delivery: Delivery): Promise<void>;
  /** Pause before a failed message is offered again the first time (default 500 ms); doubles each time. */
  retryDelayMs?: number;
  /** The longest pause between two attempts of a failing message (default 30 s). */
  maxRetryDelayMs?: number;
  /** Where dead letters and failing partitions are reported (an operator's first sign of trouble). */
  logger?: Logger;
  /**
   * Where a group with no committed position starts: the oldest message (default) or only
   * messages published from now on (a cache that needs changes, not history).
   */
  from?: 'beginning' | 'end';
}

export interface Subscription {
  /** Partitions currently assigned to this member, per topic. */
  assignment(): Map<string, number[]>;
  /**
   * Leaves the group. A message still being handled is abandoned uncommitted, as when a
   * consumer dies: another member of the group receives it again.
   */
  close(): Promise<void>;
}

export interface Bus {
  /** Creates missing topics. Topics are never created implicitly by publishing. */
  ensureTopics(topics: TopicSpec[]): Promise<void>;
  /** Resolves once every message is durably accepted (acks from all in-sync replicas on Kafka). */
  publish(messages: BusMessage[]): Promise<void>;
  subscribe(options: SubscribeOptions): Promise<Subscription>;
  close(): Promise<void>;
}

export class UnknownTopicError extends Error {
  constructor(topic: string) {
    super(`Topic ${topic} does not exist; create it with ensureTopics first`);
    this.name = 'UnknownTopicError';
  }
}

/** Thrown into an abandoned handler's continuation so its result is never committed. */
export class SubscriptionClosed extends Error {
  constructor() {
    super('Subscription closed');
    this.name = 'SubscriptionClosed';
  }
}

export const DEFAULT_RETRY_DELAY_MS = 500;
export const DEFAULT_MAX_RETRY_DELAY_MS = 30_000;
/** Dead-letter topics have one partition: few letters, kept in the order they failed. */
export const DEAD_LETTER_PARTITIONS = 1;

/** Reports a failed attempt: the first of a run and every tenth after it, so a long outage does not flood the log. */
export function reportRetry(options: SubscribeOptions, delivery: Delivery, attempt: number, error: unknown): void {
  if (attempt !== 1 && attempt % 10 !== 0) return;
  options.logger?.warn(
    {
      err: error,
      group: options.groupId,
      topic: delivery.topic,
      partition: delivery.partition,
      offset: delivery.offset,
      attempt,
    },
    'handler failed; its partition waits and tries again',
  );
}

/** Reports a message set aside in its dead-letter topic. */
export function reportDeadLetter(
  options: SubscribeOptions,
  delivery: Delivery,
  deadLetterTopic: string,
  error: unknown,
): void {
  options.logger?.error(
    {
      err: error,
      group: options.groupId,
      topic: delivery.topic,
      partition: delivery.partition,
      offset: delivery.offset,
      deadLetterTopic,
    },
    'message cannot be handled: set aside as a dead letter',
  );
}

export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((ok) => {
    const timer = setTimeout(ok, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        ok();
      },
      { once: true },
    );
  });

/** Resolves with the work's result, or rejects with SubscriptionClosed as soon as the signal aborts. */
export function abandonOnAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new SubscriptionClosed());
  return new Promise<T>((ok, fail) => {
    const onAbort = () => fail(new SubscriptionClosed());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        ok(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        fail(e);
      },
    );
  });
}
