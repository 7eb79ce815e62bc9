import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { trace } from '@opentelemetry/api';
import {
  deadLetterHeaders,
  deadLetterTopic,
  partitionFor,
  PoisonMessage,
  startTelemetry,
  type Bus,
  type DeadLetterAdmin,
  type Delivery,
  type Inbox,
  type Subscription,
} from '../../src/index.js';
import { uniqueName, waitFor } from '../support.js';

const msg = (topic: string, key: string, body: object) => ({
  topic,
  key,
  value: Buffer.from(JSON.stringify(body)),
  headers: { 'x-test': 'yes' },
});
const body = <T>(d: Delivery): T => JSON.parse(d.value.toString()) as T;

/**
 * What every Bus adapter must do. Run against the in-process bus (unit tier) and against a
 * real Kafka broker (integration tier), with an inbox of the matching kind.
 */
export function busContract(
  adapter: string,
  makeBus: () => Promise<Bus & DeadLetterAdmin>,
  makeInbox: () => Promise<Inbox<unknown>>,
): void {
  describe(`Bus contract: ${adapter}`, { timeout: 180_000 }, () => {
    let bus: Bus & DeadLetterAdmin;
    const subscriptions: Subscription[] = [];
    beforeAll(async () => {
      bus = await makeBus();
    });
    afterAll(async () => {
      await Promise.allSettled(subscriptions.map((s) => s.close()));
      await bus.close();
    });
    const subscribe = async (...args: Parameters<Bus['subscribe']>) => {
      const s = await bus.subscribe(...args);
      subscriptions.push(s);
      return s;
    };

    it('refuses to publish to a topic nobody created', async () => {
      await assert.rejects(bus.publish([msg(uniqueName('missing'), 'k', {})]));
    });

    it('keeps the order of messages with the same key, and carries headers', async () => {
      const topic = uniqueName('order');
      await bus.ensureTopics([{ name: topic, partitions: 3 }]);
      const seen = new Map<string, number[]>();
      let headerOk = true;
      await subscribe({
        groupId: uniqueName('g'),
        topics: [topic],
        handle: async (d) => {
          const { key, seq } = body<{ key: string; seq: number }>(d);
          seen.set(key, [...(seen.get(key) ?? []), seq]);
          headerOk &&= d.headers['x-test'] === 'yes';
        },
      });
      const keys = ['a', 'b', 'c', 'd', 'e'];
      for (let seq = 0; seq < 12; seq++) await bus.publish(keys.map((key) => msg(topic, key, { key, seq })));
      // Delivery is at least once: a rebalance may offer a key's uncommitted tail again. The order
      // that counts is that of first arrivals: no message arrives before the ones sent before it.
      const firstArrivals = (key: string) => [...new Set(seen.get(key) ?? [])];
      await waitFor(() => keys.every((key) => firstArrivals(key).length === 12), 'all 12 messages of every key');
      for (const key of keys)
        assert.deepEqual(
          firstArrivals(key),
          Array.from({ length: 12 }, (_, i) => i),
          `order of key ${key}`,
        );
      assert.ok(headerOk, 'headers arrive as sent');
    });

    it('shares partitions among the consumers of one group, each message to one of them', async () => {
      const topic = uniqueName('share');
      await bus.ensureTopics([{ name: topic, partitions: 4 }]);
      const groupId = uniqueName('g');
      const handledBy = new Map<string, Set<string>>();
      const keyOwner = new Map<string, Set<string>>();
      const member = (name: string) => ({
        groupId,
        topics: [topic],
        handle: async (d: Delivery) => {
          const { id } = body<{ id: string }>(d);
          handledBy.set(id, (handledBy.get(id) ?? new Set()).add(name));
          keyOwner.set(d.key, (keyOwner.get(d.key) ?? new Set()).add(name));
        },
      });
      const one = await subscribe(member('one'));
      const two = await subscribe(member('two'));
      const partitionsOf = (s: Subscription) => s.assignment().get(topic) ?? [];
      // Wait for the group to settle: after the second join, both hold disjoint shares that cover the topic.
      await waitFor(
        () =>
          partitionsOf(one).length > 0 &&
          partitionsOf(two).length > 0 &&
          partitionsOf(one).length + partitionsOf(two).length === 4 &&
          new Set([...partitionsOf(one), ...partitionsOf(two)]).size === 4,
        'both members assigned disjoint shares covering all partitions',
      );
      const ids: string[] = [];
      for (let i = 0; i < 40; i++) {
        const id = `m${i}`;
        ids.push(id);
        await bus.publish([msg(topic, `key-${i % 10}`, { id })]);
      }
      await waitFor(() => ids.every((id) => handledBy.has(id)), 'all 40 handled');
      // A member may be offered a message again (at least once); the other member, holding other partitions, never sees it.
      for (const id of ids) assert.equal(handledBy.get(id)!.size, 1, `message ${id} handled by one member`);
      const names = new Set([...handledBy.values()].flatMap((members) => [...members]));
      assert.deepEqual([...names].sort(), ['one', 'two'], 'both members did work');
      for (const [key, owners] of keyOwner) assert.equal(owners.size, 1, `key ${key} stays with one member`);
    });

    it('gives every group its own copy of each message', async () => {
      const topic = uniqueName('fanout');
      await bus.ensureTopics([{ name: topic, partitions: 2 }]);
      const seen = { a: new Set<number>(), b: new Set<number>() };
      await subscribe({
        groupId: uniqueName('ga'),
        topics: [topic],
        handle: async (d) => void seen.a.add(body<{ i: number }>(d).i),
      });
      await subscribe({
        groupId: uniqueName('gb'),
        topics: [topic],
        handle: async (d) => void seen.b.add(body<{ i: number }>(d).i),
      });
      await bus.publish(Array.from({ length: 10 }, (_, i) => msg(topic, `k${i}`, { i })));
      await waitFor(() => seen.a.size === 10 && seen.b.size === 10, 'each group gets all 10');
    });

    it('redelivers a message to the next consumer when one dies before committing', async () => {
      const topic = uniqueName('redeliver');
      await bus.ensureTopics([{ name: topic, partitions: 1 }]);
      const groupId = uniqueName('g');
      let dyingGot: string | undefined;
      const dying = await subscribe({
        groupId,
        topics: [topic],
        handle: (d) => {
          dyingGot = body<{ id: string }>(d).id;
          return new Promise<void>(() => undefined); // hangs: the process "dies" mid-handler
        },
      });
      await bus.publish([msg(topic, 'k', { id: 'first' }), msg(topic, 'k', { id: 'second' })]);
      await waitFor(() => dyingGot !== undefined, 'the dying consumer receives the first message');
      assert.equal(dyingGot, 'first');
      await dying.close();
      const received: string[] = [];
      await subscribe({
        groupId,
        topics: [topic],
        handle: async (d) => void received.push(body<{ id: string }>(d).id),
      });
      await waitFor(() => new Set(received).size === 2, 'the survivor receives both');
      assert.deepEqual([...new Set(received)], ['first', 'second'], 'first arrivals keep the order');
    });

    it('offers a message again when its handler fails, before any later message of its partition', async () => {
      const topic = uniqueName('retry');
      await bus.ensureTopics([{ name: topic, partitions: 1 }]);
      const attempts: string[] = [];
      let failuresLeft = 2;
      await subscribe({
        groupId: uniqueName('g'),
        topics: [topic],
        retryDelayMs: 20,
        handle: async (d) => {
          const { id } = body<{ id: string }>(d);
          attempts.push(id);
          if (id === 'x' && failuresLeft-- > 0) throw new Error('transient');
        },
      });
      await bus.publish([msg(topic, 'k', { id: 'x' }), msg(topic, 'k', { id: 'y' })]);
      await waitFor(() => attempts.includes('y'), 'y handled');
      // Two failures and the success of x, all before y; a rebalance could only add another x.
      const beforeY = attempts.slice(0, attempts.indexOf('y'));
      assert.ok(beforeY.length >= 3 && beforeY.every((id) => id === 'x'), `attempts before y: ${beforeY.join(',')}`);
    });

    it("runs each handler in a span that continues the producer's trace", async () => {
      startTelemetry('bus-contract');
      const topic = uniqueName('traced');
      await bus.ensureTopics([{ name: topic, partitions: 1 }]);
      const traceId = '0af7651916cd43dd8448eb211c80319c';
      let seen: string | undefined;
      await subscribe({
        groupId: uniqueName('g'),
        topics: [topic],
        handle: async () => {
          seen = trace.getActiveSpan()?.spanContext().traceId;
        },
      });
      await bus.publish([{ ...msg(topic, 'k', {}), headers: { traceparent: `00-${traceId}-b7ad6b7169203331-01` } }]);
      await waitFor(() => seen !== undefined, 'handled');
      assert.equal(seen, traceId);
    });

    it('with an inbox, a redelivered event takes effect once', async () => {
      const topic = uniqueName('inbox');
      await bus.ensureTopics([{ name: topic, partitions: 2 }]);
      const inbox = await makeInbox();
      const eventId = randomUUID();
      const sentinelId = randomUUID();
      const effects = new Map<string, number>();
      await subscribe({
        groupId: uniqueName('g'),
        topics: [topic],
        handle: async (d) => {
          const id = body<{ eventId: string }>(d).eventId;
          await inbox.handleOnce('contract-consumer', id, async () => void effects.set(id, (effects.get(id) ?? 0) + 1));
        },
      });
      const duplicate = msg(topic, 'account-1', { eventId });
      await bus.publish([duplicate, duplicate]);
      await bus.publish([duplicate]);
      // A later event on the same key is handled after every copy before it: once it took effect, so had they.
      await bus.publish([msg(topic, 'account-1', { eventId: sentinelId })]);
      await waitFor(() => effects.has(sentinelId), 'the later event took effect');
      assert.deepEqual(Object.fromEntries(effects), { [eventId]: 1, [sentinelId]: 1 });
    });

    it("sets a poison message aside in its group's dead-letter topic, and the group's other messages keep flowing", async () => {
      const topic = uniqueName('poison');
      await bus.ensureTopics([{ name: topic, partitions: 3 }]);
      const groupId = uniqueName('g');
      const handled: string[] = [];
      await subscribe({
        groupId,
        topics: [topic],
        retryDelayMs: 20,
        handle: async (d) => {
          const { id } = body<{ id: string }>(d);
          if (id === 'poison') throw new PoisonMessage('not a valid event');
          handled.push(id);
        },
      });
      const keys = ['a', 'b', 'c', 'd', 'e', 'f'];
      await bus.publish([
        { ...msg(topic, 'a', { id: 'poison' }), headers: { 'x-test': 'yes', 'x-original': 'kept' } },
        ...keys.map((key) => msg(topic, key, { id: `after-${key}` })),
      ]);
      // Later messages of the poison's own key and partition too, not only the other partitions'.
      await waitFor(() => keys.every((key) => handled.includes(`after-${key}`)), 'every later message handled');
      const dlq = deadLetterTopic(topic, groupId);
      const letters: Delivery[] = [];
      await waitFor(async () => {
        const summary = (await bus.listDeadLetters()).find((s) => s.deadLetterTopic === dlq);
        return summary?.count === 1;
      }, 'one dead letter listed');
      await subscribe({ groupId: uniqueName('reader'), topics: [dlq], handle: async (d) => void letters.push(d) });
      await waitFor(() => letters.length >= 1, 'the dead letter is on its topic');
      const [letter] = letters;
      assert.equal(letter!.key, 'a');
      assert.deepEqual(body(letter!), { id: 'poison' });
      assert.equal(letter!.headers['x-original'], 'kept', 'original headers kept');
      assert.equal(letter!.headers[deadLetterHeaders.error], 'not a valid event');
      assert.equal(letter!.headers[deadLetterHeaders.topic], topic);
      assert.equal(letter!.headers[deadLetterHeaders.group], groupId);
      assert.equal(letter!.headers[deadLetterHeaders.partition], String(partitionFor('a', 3)));
      assert.match(letter!.headers[deadLetterHeaders.offset] ?? '', /^\d+$/);
      assert.ok(!Number.isNaN(Date.parse(letter!.headers[deadLetterHeaders.at] ?? '')), 'when it failed');
      const [summary] = (await bus.listDeadLetters()).filter((s) => s.deadLetterTopic === dlq);
      assert.equal(summary!.topic, topic);
      assert.equal(summary!.groupId, groupId);
      assert.equal(summary!.lastError, 'not a valid event');
      assert.ok(summary!.oldestAt);
      assert.equal(await bus.discardDeadLetters(dlq), 1, 'leaves nothing waiting for the next test');
    });

    it('retries passing trouble with back-off on its partition alone, then handles it without loss', async () => {
      const topic = uniqueName('stuck');
      const partitions = 4;
      await bus.ensureTopics([{ name: topic, partitions }]);
      const stuckKey = 'stuck';
      const stuckPartition = partitionFor(stuckKey, partitions);
      const others = Array.from({ length: 40 }, (_, i) => `k${i}`).filter(
        (k) => partitionFor(k, partitions) !== stuckPartition,
      );
      let healthy = false;
      let failures = 0;
      const handled: string[] = [];
      await subscribe({
        groupId: uniqueName('g'),
        topics: [topic],
        retryDelayMs: 20,
        maxRetryDelayMs: 200,
        handle: async (d) => {
          const { id } = body<{ id: string }>(d);
          if (d.key === stuckKey && !healthy) {
            failures++;
            throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
          }
          handled.push(id);
        },
      });
      await bus.publish([msg(topic, stuckKey, { id: 'stuck-1' }), msg(topic, stuckKey, { id: 'stuck-2' })]);
      await waitFor(() => failures >= 2, 'the stuck message fails and is tried again');
      // Published only now, so they come in fetches after the failure: a partition retried in
      // place would hold every later fetch of the group, and these would never arrive.
      await bus.publish(others.map((key) => msg(topic, key, { id: key })));
      await waitFor(() => others.every((key) => handled.includes(key)), 'the other partitions keep moving');
      assert.ok(!handled.includes('stuck-1') && !handled.includes('stuck-2'), 'nothing overtook the stuck message');
      healthy = true;
      await waitFor(() => handled.includes('stuck-2'), 'the stuck partition recovers');
      const stuck = [...new Set(handled.filter((id) => id.startsWith('stuck-')))];
      assert.deepEqual(stuck, ['stuck-1', 'stuck-2'], 'in order, nothing lost');
      assert.equal((await bus.listDeadLetters()).filter((s) => s.topic === topic).length, 0, 'no dead letter');
    });

    it('replays a dead letter onto its topic (the inbox applies it once) and discards another', async () => {
      const topic = uniqueName('replay');
      await bus.ensureTopics([{ name: topic, partitions: 2 }]);
      const groupId = uniqueName('g');
      const inbox = await makeInbox();
      let accept = false;
      const effects = new Map<string, number>();
      await subscribe({
        groupId,
        topics: [topic],
        retryDelayMs: 20,
        handle: async (d) => {
          const { eventId } = body<{ eventId: string }>(d);
          if (!accept) throw new PoisonMessage('refused until fixed');
          await inbox.handleOnce('replay-consumer', eventId, async () => {
            effects.set(eventId, (effects.get(eventId) ?? 0) + 1);
          });
        },
      });
      const first = randomUUID();
      await bus.publish([msg(topic, 'acct', { eventId: first })]);
      const dlq = deadLetterTopic(topic, groupId);
      const waiting = async () => (await bus.listDeadLetters()).find((s) => s.deadLetterTopic === dlq)?.count ?? 0;
      await waitFor(async () => (await waiting()) === 1, 'the first is a dead letter');
      accept = true; // the fix is deployed
      assert.equal(await bus.replayDeadLetters(dlq), 1);
      await waitFor(() => effects.has(first), 'the replayed event took effect');
      assert.equal(await waiting(), 0, 'nothing waits after the replay');
      // The same event once more (a second replay, a redelivery) changes nothing: the inbox knows its id.
      const sentinel = randomUUID();
      await bus.publish([msg(topic, 'acct', { eventId: first }), msg(topic, 'acct', { eventId: sentinel })]);
      await waitFor(() => effects.has(sentinel), 'a later event of the key took effect');
      accept = false;
      const second = randomUUID();
      await bus.publish([msg(topic, 'acct', { eventId: second })]);
      await waitFor(async () => (await waiting()) === 1, 'the second is a dead letter');
      assert.equal(await bus.discardDeadLetters(dlq), 1);
      assert.equal(await waiting(), 0, 'nothing waits after the discard');
      assert.equal(await bus.replayDeadLetters(dlq), 0, 'a discarded letter is not replayed');
      assert.equal(effects.get(first), 1);
      assert.ok(!effects.has(second));
    });
  });
}
