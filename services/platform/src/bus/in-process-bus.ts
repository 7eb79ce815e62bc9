import { EventEmitter, setMaxListeners } from 'node:events';
import {
  abandonOnAbort,
  DEAD_LETTER_PARTITIONS,
  DEFAULT_MAX_RETRY_DELAY_MS,
  DEFAULT_RETRY_DELAY_MS,
  reportDeadLetter,
  reportRetry,
  sleep,
  SubscriptionClosed,
  UnknownTopicError,
  type Bus,
  type BusMessage,
  type Delivery,
  type SubscribeOptions,
  type Subscription,
  type TopicSpec,
} from './bus.js';
import { recordConsumed, trackLag } from './bus-metrics.js';
import { handleInSpan } from './consumer-span.js';
import {
  deadLetterOf,
  deadLetterHeaders,
  isDeadLetterTopic,
  isPoison,
  parseDeadLetterTopic,
  replayOf,
  retryDelay,
  type DeadLetterAdmin,
  type DeadLetterSummary,
} from './dead-letters.js';
import { partitionFor } from './partitioner.js';

interface Member {
  id: number;
  options: SubscribeOptions;
  assigned: Map<string, number[]>;
  /** Aborted when partitions are dealt again: loops finish the message in hand, then stop. */
  generation: AbortController;
  /** Aborted when the member leaves: the message in hand is abandoned uncommitted. */
  killed: AbortController;
  loops: Promise<void>[];
  closed: boolean;
}

interface Group {
  members: Member[];
  /** Next offset to consume, per `topic:partition`; committed only after a handler resolves. */
  committed: Map<string, number>;
  rebalancing: Promise<void>;
}

/**
 * The bus of the embedded default: Kafka's semantics (partitions by key, consumer groups,
 * commit after handling, redelivery of uncommitted messages) inside one process.
 * Its log lives in memory; durability comes from the outbox, which is replayed from the
 * relay's checkpoint (ADR 0004).
 */
export class InProcessBus implements Bus, DeadLetterAdmin {
  private readonly log = new Map<string, BusMessage[][]>();
  /** Per dead-letter topic, how many of its letters were replayed or discarded (the operator's position). */
  private readonly deadLettersDone = new Map<string, number>();
  private readonly groups = new Map<string, Group>();
  private readonly appended = new EventEmitter().setMaxListeners(0);
  private nextMemberId = 1;
  /** Stops the lag reports of this bus's subscriptions (on close). */
  private readonly lagReports = new Set<() => void>();

  async ensureTopics(topics: TopicSpec[]): Promise<void> {
    for (const t of topics) {
      if (!this.log.has(t.name))
        this.log.set(
          t.name,
          Array.from({ length: t.partitions }, () => []),
        );
    }
  }

  async publish(messages: BusMessage[]): Promise<void> {
    for (const m of messages) if (!this.log.has(m.topic)) throw new UnknownTopicError(m.topic);
    for (const m of messages) {
      const partitions = this.log.get(m.topic)!;
      partitions[partitionFor(m.key, partitions.length)]!.push({ ...m, headers: { ...m.headers } });
    }
    this.appended.emit('append');
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    for (const t of options.topics) if (!this.log.has(t)) throw new UnknownTopicError(t);
    const existing = this.groups.get(options.groupId);
    const group: Group = existing ?? {
      members: [],
      committed: new Map(),
      rebalancing: Promise.resolve(),
    };
    if (!existing && options.from === 'end')
      for (const t of options.topics)
        this.log.get(t)!.forEach((messages, p) => {
          group.committed.set(`${t}:${p}`, messages.length);
        });
    this.groups.set(options.groupId, group);
    const member: Member = {
      id: this.nextMemberId++,
      options,
      assigned: new Map(),
      generation: memberSignal(),
      killed: memberSignal(),
      loops: [],
      closed: false,
    };
    group.members.push(member);
    await this.rebalance(group);
    const untrack = trackLag(
      options.topics.map((topic) => ({ groupId: options.groupId, topic, lag: () => this.lagOf(group, topic) })),
    );
    this.lagReports.add(untrack);
    return {
      assignment: () => new Map(member.assigned),
      close: async () => {
        if (member.closed) return;
        untrack();
        this.lagReports.delete(untrack);
        member.closed = true;
        member.killed.abort();
        member.generation.abort();
        group.members = group.members.filter((m) => m !== member);
        await this.rebalance(group);
      },
    };
  }

  async close(): Promise<void> {
    for (const untrack of this.lagReports) untrack();
    this.lagReports.clear();
    for (const group of this.groups.values()) {
      for (const m of group.members) {
        m.closed = true;
        m.killed.abort();
        m.generation.abort();
      }
      group.members = [];
    }
    this.appended.emit('append');
  }

  /** Stops every member's loops, waits for handlers that are still alive, then deals partitions out again. */
  private rebalance(group: Group): Promise<void> {
    group.rebalancing = group.rebalancing.then(async () => {
      for (const m of group.members) m.generation.abort();
      await Promise.allSettled(group.members.flatMap((m) => m.loops));
      const members = group.members;
      for (const m of members) {
        m.assigned = new Map();
        m.generation = memberSignal();
        m.loops = [];
      }
      if (members.length === 0) return;
      const topics = [...new Set(members.flatMap((m) => m.options.topics))].sort();
      for (const topic of topics) {
        const interested = members.filter((m) => m.options.topics.includes(topic));
        const count = this.log.get(topic)!.length;
        for (let p = 0; p < count; p++) {
          const owner = interested[p % interested.length]!;
          owner.assigned.set(topic, [...(owner.assigned.get(topic) ?? []), p]);
        }
      }
      for (const m of members) {
        for (const [topic, partitions] of m.assigned) {
          for (const p of partitions)
            m.loops.push(this.consume(group, m, topic, p, m.generation.signal, m.killed.signal));
        }
      }
    });
    return group.rebalancing;
  }

  private async consume(
    group: Group,
    member: Member,
    topic: string,
    partition: number,
    signal: AbortSignal,
    killed: AbortSignal,
  ): Promise<void> {
    const slot = `${topic}:${partition}`;
    const messages = this.log.get(topic)![partition]!;
    let failures = 0; // in a row, of the message in hand
    while (!signal.aborted) {
      const offset = group.committed.get(slot) ?? 0;
      const message = messages[offset];
      if (!message) {
        await this.nextAppend(signal);
        continue;
      }
      const delivery: Delivery = { ...message, headers: { ...message.headers }, partition, offset };
      const { groupId } = member.options;
      const started = performance.now();
      try {
        await abandonOnAbort(handleInSpan(groupId, delivery, member.options.handle), killed);
        group.committed.set(slot, offset + 1);
        recordConsumed(groupId, topic, 'handled', started);
        failures = 0;
      } catch (error) {
        if (error instanceof SubscriptionClosed) return;
        if (isPoison(error)) {
          // The message can never be handled: set aside with its error, and the partition goes on.
          const letter = deadLetterOf(delivery, groupId, error);
          await this.ensureTopics([{ name: letter.topic, partitions: DEAD_LETTER_PARTITIONS }]);
          await this.publish([letter]);
          reportDeadLetter(member.options, delivery, letter.topic, error);
          group.committed.set(slot, offset + 1);
          recordConsumed(groupId, topic, 'dead_lettered', started);
          failures = 0;
          continue;
        }
        // Passing trouble: this partition waits and tries again, the others are their own loops.
        recordConsumed(groupId, topic, 'retried', started);
        failures++;
        reportRetry(member.options, delivery, failures, error);
        const base = member.options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
        await sleep(retryDelay(failures, base, member.options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS), signal);
      }
    }
  }

  /** Messages of `topic` the group has not committed yet, over all its partitions. */
  private lagOf(group: Group, topic: string): number {
    let lag = 0;
    this.log.get(topic)?.forEach((messages, p) => {
      lag += Math.max(0, messages.length - (group.committed.get(`${topic}:${p}`) ?? 0));
    });
    return lag;
  }

  async listDeadLetters(): Promise<DeadLetterSummary[]> {
    const out: DeadLetterSummary[] = [];
    for (const [name, partitions] of this.log) {
      const parsed = parseDeadLetterTopic(name);
      if (!parsed || !isDeadLetterTopic(name)) continue;
      const letters = partitions.flat();
      const waiting = letters.slice(this.deadLettersDone.get(name) ?? 0);
      out.push({
        deadLetterTopic: name,
        topic: parsed.topic,
        groupId: parsed.groupId,
        count: waiting.length,
        oldestAt: waiting[0]?.headers[deadLetterHeaders.at],
        lastError: waiting.at(-1)?.headers[deadLetterHeaders.error],
      });
    }
    return out.sort((a, b) => a.deadLetterTopic.localeCompare(b.deadLetterTopic));
  }

  async replayDeadLetters(deadLetterTopic: string, limit = Number.POSITIVE_INFINITY): Promise<number> {
    const waiting = this.waitingLetters(deadLetterTopic, limit);
    const replays = waiting.map(replayOf).filter((m): m is BusMessage => m !== undefined);
    await this.publish(replays);
    this.deadLettersDone.set(deadLetterTopic, (this.deadLettersDone.get(deadLetterTopic) ?? 0) + waiting.length);
    return waiting.length;
  }

  async discardDeadLetters(deadLetterTopic: string, limit = Number.POSITIVE_INFINITY): Promise<number> {
    const waiting = this.waitingLetters(deadLetterTopic, limit);
    this.deadLettersDone.set(deadLetterTopic, (this.deadLettersDone.get(deadLetterTopic) ?? 0) + waiting.length);
    return waiting.length;
  }

  private waitingLetters(deadLetterTopic: string, limit: number): BusMessage[] {
    if (!isDeadLetterTopic(deadLetterTopic) || !this.log.has(deadLetterTopic))
      throw new UnknownTopicError(deadLetterTopic);
    const done = this.deadLettersDone.get(deadLetterTopic) ?? 0;
    const letters = this.log.get(deadLetterTopic)!.flat();
    return letters.slice(done, done + Math.max(0, limit));
  }

  private nextAppend(signal: AbortSignal): Promise<void> {
    return new Promise((ok) => {
      const done = () => {
        this.appended.off('append', done);
        signal.removeEventListener('abort', done);
        ok();
      };
      this.appended.on('append', done);
      signal.addEventListener('abort', done, { once: true });
    });
  }
}

/**
 * A member's signal: every partition loop of the member (one per partition it holds, twelve on a
 * default topic) listens on it, so more listeners than Node's warning threshold of 10 are expected
 * here, not a leak (they are removed when each wait ends).
 */
function memberSignal(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}
