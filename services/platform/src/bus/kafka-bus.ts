import { Kafka, logLevel, type Admin, type Consumer, type Producer } from 'kafkajs';
import { handleInSpan } from './consumer-span.js';
import {
  abandonOnAbort,
  sleep,
  SubscriptionClosed,
  type Bus,
  type BusMessage,
  type SubscribeOptions,
  type Subscription,
  type TopicSpec,
} from './bus.js';

/** Within a long batch, commit after this many handled messages, or this long after the last commit. */
const COMMIT_EVERY = 100;
const COMMIT_MS = 1_000;

/** The next offset to commit for one partition's batch: handled messages since the last commit. */
export class CommitWindow {
  private next: number | undefined;
  private count = 0;
  private since = Date.now();

  constructor(
    private readonly every = COMMIT_EVERY,
    private readonly ms = COMMIT_MS,
    private readonly now: () => number = Date.now,
  ) {
    this.since = now();
  }

  /** Records a handled message (the offset after it); true when it is time to commit. */
  add(nextOffset: number): boolean {
    this.next = nextOffset;
    this.count++;
    return this.count >= this.every || this.now() - this.since >= this.ms;
  }

  /** The offset to commit, if anything was handled since the last take. */
  take(): string | undefined {
    const next = this.next;
    this.next = undefined;
    this.count = 0;
    this.since = this.now();
    return next === undefined ? undefined : String(next);
  }
}

export interface KafkaBusOptions {
  brokers: string[];
  clientId: string;
  /** Replication factor for created topics (1 on a single local broker, 3 in a cluster). */
  replicationFactor?: number;
  /** SCRAM credentials of this client's Kafka user; absent: an unauthenticated listener. */
  sasl?: KafkaSasl;
}

/** A Kafka user's SCRAM-SHA-512 credentials (the only mechanism the cluster's listener accepts). */
export interface KafkaSasl {
  username: string;
  password: string;
}

/**
 * The bus on Kafka. Producers wait for all in-sync replicas (acks -1) and are idempotent;
 * consumers commit an offset only past messages whose handlers (and so their transactions) have
 * finished, so a consumer that dies mid-handler leaves the message to the next owner.
 */
export class KafkaBus implements Bus {
  private readonly kafka: Kafka;
  private readonly producer: Producer;
  private admin: Admin | undefined;
  private connected: Promise<void> | undefined;
  private readonly consumers = new Set<Consumer>();

  constructor(private readonly options: KafkaBusOptions) {
    this.kafka = new Kafka({
      clientId: options.clientId,
      brokers: options.brokers,
      ...(options.sasl
        ? {
            sasl: {
              mechanism: 'scram-sha-512' as const,
              username: options.sasl.username,
              password: options.sasl.password,
            },
          }
        : {}),
      logLevel: logLevel.NOTHING,
      retry: { retries: 8 },
    });
    // Bounded retries: a missing topic or a lost broker surfaces in seconds, and the outbox relay retries later.
    this.producer = this.kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      retry: { retries: 5, initialRetryTime: 100, maxRetryTime: 2_000 },
    });
  }

  private connect(): Promise<void> {
    this.connected ??= this.producer.connect();
    return this.connected;
  }

  /**
   * Creates the missing topics and returns once every one has a leader for each partition.
   * Several services (or test files) starting at once race to create the same topics: the loser
   * sees "already exists", or asks for metadata the brokers do not have yet ("does not host this
   * topic-partition"); both only mean "not ready yet", so it looks again, a bounded number of times.
   */
  async ensureTopics(topics: TopicSpec[]): Promise<void> {
    this.admin ??= this.kafka.admin();
    const admin = this.admin;
    await admin.connect();
    for (let attempt = 1; ; attempt++) {
      try {
        const existing = new Set(await admin.listTopics());
        const missing = topics.filter((t) => !existing.has(t.name));
        if (missing.length > 0) {
          await admin.createTopics({
            waitForLeaders: true,
            topics: missing.map((t) => ({
              topic: t.name,
              numPartitions: t.partitions,
              replicationFactor: this.options.replicationFactor ?? 1,
            })),
          });
        }
        const { topics: described } = await admin.fetchTopicMetadata({ topics: topics.map((t) => t.name) });
        if (described.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0))) return;
        throw new TopicsNotReady();
      } catch (error) {
        if (!isTopicCreationRace(error) || attempt >= TOPIC_READY_ATTEMPTS) throw error;
        await new Promise((ok) => setTimeout(ok, Math.min(100 * attempt, 1_000)));
      }
    }
  }

  /**
   * Messages of `topic` the consumer group has not committed yet (a partition it never committed
   * counts from the earliest kept offset, as the group would start there).
   */
  async consumerLag(groupId: string, topic: string): Promise<number> {
    this.admin ??= this.kafka.admin();
    await this.admin.connect();
    const [ends, [committed]] = await Promise.all([
      this.admin.fetchTopicOffsets(topic),
      this.admin.fetchOffsets({ groupId, topics: [topic] }),
    ]);
    const done = new Map((committed?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]));
    return ends.reduce((sum, p) => {
      const at = done.get(p.partition) ?? -1;
      return sum + Math.max(0, Number(p.high) - (at >= 0 ? at : Number(p.low)));
    }, 0);
  }

  async publish(messages: BusMessage[]): Promise<void> {
    if (messages.length === 0) return;
    await this.connect();
    const byTopic = new Map<string, BusMessage[]>();
    for (const m of messages) byTopic.set(m.topic, [...(byTopic.get(m.topic) ?? []), m]);
    await this.producer.sendBatch({
      acks: -1,
      topicMessages: [...byTopic].map(([topic, ms]) => ({
        topic,
        messages: ms.map((m) => ({ key: m.key, value: m.value, headers: m.headers })),
      })),
    });
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    const consumer = this.kafka.consumer({
      groupId: options.groupId,
      allowAutoTopicCreation: false,
      sessionTimeout: 10_000,
      rebalanceTimeout: 15_000,
      heartbeatInterval: 1_000,
      retry: { retries: 8 },
    });
    this.consumers.add(consumer);
    const killed = new AbortController();
    let assignment = new Map<string, number[]>();
    consumer.on(consumer.events.GROUP_JOIN, (e) => {
      assignment = new Map(Object.entries(e.payload.memberAssignment));
    });
    await consumer.connect();
    await consumer.subscribe({ topics: options.topics, fromBeginning: options.from !== 'end' });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: 8,
      eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
        const { topic, partition } = batch;
        // Offsets are committed a batch at a time (and every COMMIT_EVERY messages or COMMIT_MS
        // within a long one), only ever past messages whose handlers finished: one commit per
        // message made a consumer catching up on a backlog spend most of its time in commit
        // round trips. A consumer that dies offers the uncommitted tail again, which the
        // handlers' inboxes absorb (delivery is at least once either way).
        const handled = new CommitWindow();
        // A commit the coordinator refuses (the partition moved to another member, the consumer is
        // leaving) only leaves those messages to be offered again.
        const commit = async () => {
          const offset = handled.take();
          if (offset !== undefined) await consumer.commitOffsets([{ topic, partition, offset }]).catch(() => undefined);
        };
        try {
          for (const message of batch.messages) {
            if (!isRunning() || isStale()) break;
            const headers: Record<string, string> = {};
            for (const [k, v] of Object.entries(message.headers ?? {})) if (v !== undefined) headers[k] = v.toString();
            const delivery = {
              topic,
              partition,
              offset: Number(message.offset),
              key: message.key?.toString() ?? '',
              value: message.value ?? Buffer.alloc(0),
              headers,
            };
            // Retry in place: the partition waits, so a later message never overtakes a failed one.
            for (;;) {
              try {
                await abandonOnAbort(handleInSpan(options.groupId, delivery, options.handle), killed.signal);
                break;
              } catch (error) {
                if (error instanceof SubscriptionClosed) throw error; // dies without committing
                await heartbeat().catch(() => undefined);
                await sleep(options.retryDelayMs ?? 500, killed.signal);
                if (killed.signal.aborted) throw new SubscriptionClosed();
              }
            }
            resolveOffset(message.offset); // the next fetch of this partition starts after it
            if (handled.add(Number(message.offset) + 1)) await commit();
            await heartbeat();
          }
        } finally {
          // what was handled before a close, a rebalance, a handler abandoned, or the batch's end
          await commit();
        }
      },
    });
    return {
      assignment: () => new Map(assignment),
      close: async () => {
        killed.abort();
        this.consumers.delete(consumer);
        await consumer.disconnect();
      },
    };
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.consumers].map((c) => c.disconnect()));
    this.consumers.clear();
    if (this.connected) await this.producer.disconnect();
    await this.admin?.disconnect();
  }
}

const TOPIC_READY_ATTEMPTS = 30;
const RACE_TYPES = new Set(['UNKNOWN_TOPIC_OR_PARTITION', 'LEADER_NOT_AVAILABLE', 'TOPIC_ALREADY_EXISTS']);

class TopicsNotReady extends Error {
  constructor() {
    super('Kafka topics have no leader yet');
  }
}

/** Whether an admin error only says that topics are being created by someone else right now. */
function isTopicCreationRace(error: unknown): boolean {
  if (error instanceof TopicsNotReady) return true;
  const e = error as { type?: string; errors?: unknown[]; cause?: unknown; originalError?: unknown } | undefined;
  if (!e || typeof e !== 'object') return false;
  if (e.type && RACE_TYPES.has(e.type)) return true;
  if (Array.isArray(e.errors) && e.errors.length > 0 && e.errors.every(isTopicCreationRace)) return true;
  return isTopicCreationRace(e.originalError) || isTopicCreationRace(e.cause);
}
