import { randomUUID } from 'node:crypto';
import { type Admin, type Consumer, type ConsumerRunConfig, Kafka, logLevel, type Producer } from 'kafkajs';
import { recordConsumed, trackLag } from './bus-metrics.js';
import { handleInSpan } from './consumer-span.js';
import {
  deadLetterHeaders,
  deadLetterOf,
  isDeadLetterTopic,
  isPoison,
  parseDeadLetterTopic,
  replayOf,
  retryDelay,
  type DeadLetterAdmin,
  type DeadLetterSummary,
} from './dead-letters.js';
import {
  abandonOnAbort,
  DEAD_LETTER_PARTITIONS,
  DEFAULT_MAX_RETRY_DELAY_MS,
  DEFAULT_RETRY_DELAY_MS,
  reportDeadLetter,
  reportRetry,
  SubscriptionClosed,
  UnknownTopicError,
  type Bus,
  type BusMessage,
  type Delivery,
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

/**
 * How long the broker may hold a fetch that finds nothing new. It does not delay a delivery (a
 * fetch answers as soon as one message is there), but a consumer's disconnect waits for its fetch
 * in flight: with kafkajs' default of 5 s every stop (a rolling update's SIGTERM, a test stack's
 * close) took 5 s. 1 s costs one empty fetch a second per idle consumer.
 */
const FETCH_MAX_WAIT_MS = 1_000;
/** Back-off of a consumer started again after a crash kafkajs does not recover from itself. */
const CRASH_RESTART_MIN_MS = 500;
const CRASH_RESTART_MAX_MS = 30_000;

export interface KafkaBusOptions {
  brokers: string[];
  clientId: string;
  /** Replication factor for created topics (1 on a single local broker, 3 in a cluster). */
  replicationFactor?: number;
  /** SCRAM credentials of this client's Kafka user; absent: an unauthenticated listener. */
  sasl?: KafkaSasl;
  /**
   * A namespace on a shared broker (ADR 0010): every topic and consumer group this bus touches is
   * `${topicPrefix}${name}` on the broker, while what the application sees (topic names in
   * deliveries, dead-letter summaries, group ids) stays logical. Each test stack takes a fresh one,
   * so no test reads another's history; production leaves it empty, and nothing changes there.
   */
  topicPrefix?: string;
  /** Delete the namespace's topics and groups when the bus closes (a test stack's; needs a prefix). */
  deleteNamespaceOnClose?: boolean;
}

/** The characters Kafka allows in a topic name (and so in a prefix of one). */
export const TOPIC_PREFIX_PATTERN = /^[A-Za-z0-9._-]{0,100}$/;

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
export class KafkaBus implements Bus, DeadLetterAdmin {
  private readonly kafka: Kafka;
  private producer: Producer;
  private admin: Admin | undefined;
  /** The admin client the lag metrics read offsets with (made at the first scrape). */
  private metricsAdmin: Admin | undefined;
  private connected: Promise<void> | undefined;
  private readonly consumers = new Set<Consumer>();
  /** Stops the lag reports of this bus's subscriptions (on close). */
  private readonly lagReports = new Set<() => void>();

  /** The namespace on the broker ('' in production). */
  readonly prefix: string;

  constructor(private readonly options: KafkaBusOptions) {
    this.prefix = options.topicPrefix ?? '';
    if (!TOPIC_PREFIX_PATTERN.test(this.prefix)) throw new Error(`invalid Kafka topic prefix ${this.prefix}`);
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
    this.producer = this.newProducer();
  }

  /** Bounded retries: a missing topic or a lost broker surfaces in seconds, and the outbox relay retries later. */
  private newProducer(): Producer {
    return this.kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      retry: { retries: 5, initialRetryTime: 100, maxRetryTime: 2_000 },
    });
  }

  /**
   * After a failed send the producer is replaced. An idempotent kafkajs producer whose broker lost
   * its producer state (a restarted broker answers OUT_OF_ORDER_SEQUENCE_NUMBER or
   * UNKNOWN_PRODUCER_ID) keeps its old id and sequence numbers and so fails every later send
   * (kafkajs#598): the outbox would stop for good. A new producer asks for a new id; what the
   * failed send may have delivered is published again, and consumers' inboxes absorb it.
   */
  private replaceProducer(): void {
    const failed = this.producer;
    const wasConnected = this.connected;
    this.producer = this.newProducer();
    this.connected = undefined;
    if (wasConnected) void wasConnected.then(() => failed.disconnect()).catch(() => undefined);
  }

  /** The broker's name of a logical topic or group. */
  private physical(name: string): string {
    return `${this.prefix}${name}`;
  }

  /** The logical name of one of this namespace's broker names (undefined: another namespace's). */
  private logical(name: string): string | undefined {
    return name.startsWith(this.prefix) ? name.slice(this.prefix.length) : undefined;
  }

  private connect(): Promise<void> {
    if (!this.connected) {
      const attempt = this.producer.connect();
      this.connected = attempt;
      // A connection that failed is tried afresh next time (a cached rejection would fail every send).
      attempt.catch(() => {
        if (this.connected === attempt) this.connected = undefined;
      });
    }
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
    topics = topics.map((t) => ({ ...t, name: this.physical(t.name) }));
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
    return this.lagOn(this.admin, groupId, topic);
  }

  private lagAdmin(): Admin {
    this.metricsAdmin ??= this.kafka.admin();
    return this.metricsAdmin;
  }

  private async lagOn(admin: Admin, groupId: string, topic: string): Promise<number> {
    groupId = this.physical(groupId);
    topic = this.physical(topic);
    await admin.connect();
    const [ends, [committed]] = await Promise.all([
      admin.fetchTopicOffsets(topic),
      admin.fetchOffsets({ groupId, topics: [topic] }),
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
    for (const m of messages) {
      const topic = this.physical(m.topic);
      byTopic.set(topic, [...(byTopic.get(topic) ?? []), m]);
    }
    try {
      await this.producer.sendBatch({
        acks: -1,
        topicMessages: [...byTopic].map(([topic, ms]) => ({
          topic,
          messages: ms.map((m) => ({ key: m.key, value: m.value, headers: m.headers })),
        })),
      });
    } catch (error) {
      this.replaceProducer();
      throw error;
    }
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    const consumer = this.kafka.consumer({
      groupId: this.physical(options.groupId),
      allowAutoTopicCreation: false,
      sessionTimeout: 10_000,
      rebalanceTimeout: 15_000,
      heartbeatInterval: 1_000,
      maxWaitTimeInMs: FETCH_MAX_WAIT_MS,
      retry: { retries: 8 },
    });
    this.consumers.add(consumer);
    const killed = new AbortController();
    let assignment = new Map<string, number[]>();
    consumer.on(consumer.events.GROUP_JOIN, (e) => {
      assignment = new Map(
        Object.entries(e.payload.memberAssignment).map(([topic, partitions]) => [
          this.logical(topic) ?? topic,
          partitions,
        ]),
      );
    });
    // Failures in a row of the message each partition is stuck on, and the timers that resume them.
    const failures = new Map<string, number>();
    const resumes = new Set<NodeJS.Timeout>();
    const baseDelay = options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
    const maxDelay = options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS;
    const runConfig: ConsumerRunConfig = {
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: 8,
      eachBatch: async ({ batch, resolveOffset, heartbeat, pause, isRunning, isStale }) => {
        const { partition } = batch;
        const topic = batch.topic; // the broker's name: offsets and pauses use it
        const slot = `${topic}:${partition}`;
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
              topic: this.logical(topic) ?? topic, // what the application sees is the logical name
              partition,
              offset: Number(message.offset),
              key: message.key?.toString() ?? '',
              value: message.value ?? Buffer.alloc(0),
              headers,
            };
            const started = performance.now();
            try {
              await abandonOnAbort(handleInSpan(options.groupId, delivery, options.handle), killed.signal);
              recordConsumed(options.groupId, delivery.topic, 'handled', started);
            } catch (error) {
              if (error instanceof SubscriptionClosed) throw error; // dies without committing
              // A message that can never be handled goes to the group's dead-letter topic; if even
              // that fails (the broker is away), it is passing trouble like any other.
              const setAside = isPoison(error) && (await this.deadLetter(delivery, options, error));
              recordConsumed(options.groupId, delivery.topic, setAside ? 'dead_lettered' : 'retried', started);
              if (!setAside) {
                // Passing trouble: pause only this partition and leave the batch with the message
                // unresolved, so the next fetch (after the back-off) starts at it again. Retrying
                // here would hold the whole fetch, and so every other partition of the group.
                const attempt = (failures.get(slot) ?? 0) + 1;
                failures.set(slot, attempt);
                reportRetry(options, delivery, attempt, error);
                const resume = pause();
                const timer = setTimeout(
                  () => {
                    resumes.delete(timer);
                    if (!killed.signal.aborted) resume();
                  },
                  retryDelay(attempt, baseDelay, maxDelay),
                );
                resumes.add(timer);
                return;
              }
            }
            failures.delete(slot);
            resolveOffset(message.offset); // the next fetch of this partition starts after it
            if (handled.add(Number(message.offset) + 1)) await commit();
            await heartbeat();
          }
        } finally {
          // what was handled before a close, a rebalance, a handler abandoned, a pause, or the batch's end
          await commit();
        }
      },
    };
    const start = async () => {
      await consumer.connect();
      await consumer.subscribe({
        topics: options.topics.map((t) => this.physical(t)),
        fromBeginning: options.from !== 'end',
      });
      await consumer.run(runConfig);
    };
    // kafkajs restarts a crashed consumer only after an error it counts as retriable. A broker
    // that refuses connections for a moment (a restart) can surface as a non-retriable one, and the
    // group would then stop consuming for good, its lag growing. Start it again, with back-off,
    // until it runs or the subscription closes.
    let restartDelay = CRASH_RESTART_MIN_MS;
    const restartAfterCrash = () => {
      const timer = setTimeout(async () => {
        resumes.delete(timer);
        if (killed.signal.aborted) return;
        try {
          await start();
          restartDelay = CRASH_RESTART_MIN_MS;
        } catch {
          restartDelay = Math.min(restartDelay * 2, CRASH_RESTART_MAX_MS);
          restartAfterCrash();
        }
      }, restartDelay);
      resumes.add(timer);
    };
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (!payload.restart && !killed.signal.aborted) restartAfterCrash();
    });
    await start();
    const untrack = trackLag(
      options.topics.map((topic) => ({
        groupId: options.groupId,
        topic,
        // On an admin client of its own: kafkajs' admin mixes up concurrent offset requests, and a
        // scrape must not meet an operator's dead-letter listing on the bus's one.
        lag: () => this.lagOn(this.lagAdmin(), options.groupId, topic),
      })),
    );
    this.lagReports.add(untrack);
    return {
      assignment: () => new Map(assignment),
      close: async () => {
        untrack();
        this.lagReports.delete(untrack);
        killed.abort();
        for (const timer of resumes) clearTimeout(timer);
        resumes.clear();
        this.consumers.delete(consumer);
        await consumer.disconnect();
      },
    };
  }

  /** Writes a delivery to its group's dead-letter topic (created on first use); false if that failed. */
  private async deadLetter(delivery: Delivery, options: SubscribeOptions, error: unknown): Promise<boolean> {
    const letter = deadLetterOf(delivery, options.groupId, error);
    try {
      await this.ensureTopics([{ name: letter.topic, partitions: DEAD_LETTER_PARTITIONS }]);
      await this.publish([letter]);
      reportDeadLetter(options, delivery, letter.topic, error);
      return true;
    } catch {
      return false;
    }
  }

  private async adminClient(): Promise<Admin> {
    this.admin ??= this.kafka.admin();
    await this.admin.connect();
    return this.admin;
  }

  /**
   * Dead letters waiting: those past the operator group's committed offset on each dead-letter
   * topic (one partition each). Replaying or discarding moves that offset, never deletes a letter,
   * so what was done stays in the topic until retention takes it.
   */
  async listDeadLetters(): Promise<DeadLetterSummary[]> {
    const admin = await this.adminClient();
    // Only this namespace's, in logical names (another prefix's topics are another stack's).
    const names = (await admin.listTopics())
      .map((t) => this.logical(t))
      .filter((t): t is string => t !== undefined && isDeadLetterTopic(t))
      .sort();
    const out: DeadLetterSummary[] = [];
    // One topic at a time: kafkajs' admin client mixes up concurrent offset requests.
    for (const name of names) {
      const parsed = parseDeadLetterTopic(name)!;
      const { from, to } = await this.waitingRange(admin, this.physical(name));
      const summary: DeadLetterSummary = { deadLetterTopic: name, ...parsed, count: Math.max(0, to - from) };
      if (to > from) {
        const [first, last] = await Promise.all([
          this.readLetters(this.physical(name), from, from + 1),
          this.readLetters(this.physical(name), to - 1, to),
        ]);
        summary.oldestAt = first[0]?.headers[deadLetterHeaders.at];
        summary.lastError = last[0]?.headers[deadLetterHeaders.error];
      }
      out.push(summary);
    }
    return out;
  }

  async replayDeadLetters(deadLetterTopic: string, limit = Number.MAX_SAFE_INTEGER): Promise<number> {
    return this.dealWith(deadLetterTopic, limit, async (letters) => {
      const replays = letters.map(replayOf).filter((m): m is BusMessage => m !== undefined);
      await this.publish(replays);
    });
  }

  async discardDeadLetters(deadLetterTopic: string, limit = Number.MAX_SAFE_INTEGER): Promise<number> {
    return this.dealWith(deadLetterTopic, limit); // nothing to read: only the offset moves
  }

  /** Reads the next `limit` waiting letters, does `work` with them (if any), then moves the operator's offset past them. */
  private async dealWith(
    deadLetterTopic: string,
    limit: number,
    work?: (letters: BusMessage[]) => Promise<void>,
  ): Promise<number> {
    if (!isDeadLetterTopic(deadLetterTopic)) throw new UnknownTopicError(deadLetterTopic);
    const admin = await this.adminClient();
    const topic = this.physical(deadLetterTopic);
    if (!(await admin.listTopics()).includes(topic)) throw new UnknownTopicError(deadLetterTopic);
    const { from, to } = await this.waitingRange(admin, topic);
    const until = Math.min(to, from + Math.max(0, limit));
    if (until <= from) return 0;
    if (work) await work(await this.readLetters(topic, from, until));
    // After the work: a crash in between replays those letters again, which the inbox absorbs.
    await admin.setOffsets({
      groupId: this.physical(DEAD_LETTER_OPERATOR_GROUP),
      topic,
      partitions: [{ partition: 0, offset: String(until) }],
    });
    return until - from;
  }

  /** The offsets of the waiting letters: from the operator group's position (or the earliest kept) to the end. */
  private async waitingRange(admin: Admin, topic: string): Promise<{ from: number; to: number }> {
    // A topic created a moment ago (another consumer's first dead letter) may be missing from the
    // client's metadata: fetch it, and ask once more.
    const ends = await admin.fetchTopicOffsets(topic).catch(async () => {
      await admin.fetchTopicMetadata({ topics: [topic] });
      return admin.fetchTopicOffsets(topic);
    });
    const [committed] = await admin.fetchOffsets({
      groupId: this.physical(DEAD_LETTER_OPERATOR_GROUP),
      topics: [topic],
    });
    const end = ends.find((p) => p.partition === 0);
    const low = Number(end?.low ?? 0);
    const at = Number(committed?.partitions.find((p) => p.partition === 0)?.offset ?? -1);
    return { from: Math.max(low, at), to: Number(end?.high ?? 0) };
  }

  /**
   * The letters at offsets [from, to) of a dead-letter topic (its broker name), read by a throwaway
   * consumer; each letter carries the logical topic name.
   */
  private async readLetters(topic: string, from: number, to: number): Promise<BusMessage[]> {
    const groupId = this.physical(`${DEAD_LETTER_OPERATOR_GROUP}-reader-${randomUUID()}`);
    const consumer = this.kafka.consumer({
      groupId,
      allowAutoTopicCreation: false,
      maxWaitTimeInMs: FETCH_MAX_WAIT_MS,
      retry: { retries: 8 },
    });
    const letters: BusMessage[] = [];
    await consumer.connect();
    try {
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      await new Promise<void>((done, fail) => {
        // Letters below the high mark are there to read: a read that never ends is a broker fault.
        const timer = setTimeout(() => fail(new Error(`reading ${topic} timed out`)), READ_LETTERS_TIMEOUT_MS);
        consumer
          .run({
            autoCommit: false,
            eachMessage: async ({ message }) => {
              const offset = Number(message.offset);
              if (offset >= from && offset < to) {
                const headers: Record<string, string> = {};
                for (const [k, v] of Object.entries(message.headers ?? {}))
                  if (v !== undefined) headers[k] = v.toString();
                letters.push({
                  topic: this.logical(topic) ?? topic,
                  key: message.key?.toString() ?? '',
                  value: message.value ?? Buffer.alloc(0),
                  headers,
                });
              }
              if (offset >= to - 1) {
                clearTimeout(timer);
                done();
              }
            },
          })
          .then(() => consumer.seek({ topic, partition: 0, offset: String(from) }), fail);
      });
    } finally {
      await consumer.disconnect();
      await (await this.adminClient()).deleteGroups([groupId]).catch(() => undefined);
    }
    return letters;
  }

  /**
   * Deletes every topic and consumer group of this bus's namespace (a test stack's, when it
   * closes, so the one test broker does not collect partitions). Refuses without a prefix: that
   * would be the whole broker.
   */
  async deleteNamespace(): Promise<void> {
    if (!this.prefix) throw new Error('deleteNamespace needs a topic prefix: without one it would be every topic');
    const admin = await this.adminClient();
    // A deletion is done when the broker no longer lists the topics, not when it answers: a loaded
    // broker can refuse one for a moment, and one it accepted can still be listed just after (CI
    // twice found both topics of a closed test stack there, once after the request had been tried
    // again). So it asks, and looks, until they are gone or DELETE_WAIT_MS has passed.
    const until = Date.now() + DELETE_WAIT_MS;
    const left = async () => (await admin.listTopics()).filter((t) => t.startsWith(this.prefix));
    let refused: unknown;
    let topics = await left();
    for (let attempt = 1; topics.length > 0; attempt++) {
      if (Date.now() > until)
        throw new Error(`the topics of namespace ${this.prefix} are still there: ${topics.join(', ')}`, {
          cause: refused,
        });
      await admin.deleteTopics({ topics, timeout: 30_000 }).catch((err: unknown) => {
        refused = err; // a topic already being deleted is refused too: the next look decides
      });
      topics = await left();
      if (topics.length === 0) break;
      await new Promise((ok) => setTimeout(ok, Math.min(250 * attempt, 2_000)));
      topics = await left();
    }
    const { groups } = await admin.listGroups();
    const own = groups.map((g) => g.groupId).filter((g) => g.startsWith(this.prefix));
    // A group whose members are still leaving refuses; its offsets expire with the broker's retention.
    if (own.length > 0) await admin.deleteGroups(own).catch(() => undefined);
  }

  async close(): Promise<void> {
    for (const untrack of this.lagReports) untrack();
    this.lagReports.clear();
    await Promise.allSettled([...this.consumers].map((c) => c.disconnect()));
    this.consumers.clear();
    // After this bus's consumers left (a group with members refuses deletion); a failure only leaves topics behind.
    if (this.options.deleteNamespaceOnClose && this.prefix) await this.deleteNamespace().catch(() => undefined);
    if (this.connected) await this.producer.disconnect();
    await this.admin?.disconnect();
    await this.metricsAdmin?.disconnect();
  }
}

/** How long a namespace's deletion asks and looks before it reports the topics still there. */
const DELETE_WAIT_MS = 30_000;

/**
 * The consumer group whose committed offset on each dead-letter topic marks the letters an
 * operator has replayed or discarded; it never has members.
 */
export const DEAD_LETTER_OPERATOR_GROUP = 'flatlay-dead-letters';

const READ_LETTERS_TIMEOUT_MS = 60_000;
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
