import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { trace } from '@opentelemetry/api';
import { startTelemetry, type Bus, type Delivery, type Inbox, type Subscription } from '../../src/index.js';
import { uniqueName, waitFor } from '../support.js';

const msg = (topic: string, key: string, body: object) => ({ topic, key, value: Buffer.from(JSON.stringify(body)), headers: { 'x-test': 'yes' } });
const body = <T>(d: Delivery): T => JSON.parse(d.value.toString()) as T;

/**
 * What every Bus adapter must do. Run against the in-process bus (unit tier) and against a
 * real Kafka broker (integration tier), with an inbox of the matching kind.
 */
export function busContract(adapter: string, makeBus: () => Promise<Bus>, makeInbox: () => Promise<Inbox<unknown>>): void {
  describe(`Bus contract: ${adapter}`, { timeout: 180_000 }, () => {
    let bus: Bus;
    const subscriptions: Subscription[] = [];
    before(async () => {
      bus = await makeBus();
    });
    after(async () => {
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
      await waitFor(() => [...seen.values()].reduce((n, s) => n + s.length, 0) >= 60, '60 messages');
      for (const key of keys) assert.deepEqual(seen.get(key), Array.from({ length: 12 }, (_, i) => i), `order of key ${key}`);
      assert.ok(headerOk, 'headers arrive as sent');
    });

    it('shares partitions among the consumers of one group, each message to one of them', async () => {
      const topic = uniqueName('share');
      await bus.ensureTopics([{ name: topic, partitions: 4 }]);
      const groupId = uniqueName('g');
      const handledBy = new Map<string, string[]>();
      const keyOwner = new Map<string, Set<string>>();
      const member = (name: string) => ({
        groupId,
        topics: [topic],
        handle: async (d: Delivery) => {
          const { id } = body<{ id: string }>(d);
          handledBy.set(id, [...(handledBy.get(id) ?? []), name]);
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
      for (const id of ids) assert.equal(handledBy.get(id)!.length, 1, `message ${id} handled once`);
      const names = new Set([...handledBy.values()].flat());
      assert.deepEqual([...names].sort(), ['one', 'two'], 'both members did work');
      for (const [key, owners] of keyOwner) assert.equal(owners.size, 1, `key ${key} stays with one member`);
    });

    it('gives every group its own copy of each message', async () => {
      const topic = uniqueName('fanout');
      await bus.ensureTopics([{ name: topic, partitions: 2 }]);
      const counts = { a: 0, b: 0 };
      await subscribe({ groupId: uniqueName('ga'), topics: [topic], handle: async () => void counts.a++ });
      await subscribe({ groupId: uniqueName('gb'), topics: [topic], handle: async () => void counts.b++ });
      await bus.publish(Array.from({ length: 10 }, (_, i) => msg(topic, `k${i}`, { i })));
      await waitFor(() => counts.a === 10 && counts.b === 10, 'each group gets 10');
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
      await subscribe({ groupId, topics: [topic], handle: async (d) => void received.push(body<{ id: string }>(d).id) });
      await waitFor(() => received.length >= 2, 'the survivor receives both');
      assert.deepEqual(received, ['first', 'second']);
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
      assert.deepEqual(attempts, ['x', 'x', 'x', 'y']);
    });

    it('runs each handler in a span that continues the producer\'s trace', async () => {
      startTelemetry('bus-contract');
      const topic = uniqueName('traced');
      await bus.ensureTopics([{ name: topic, partitions: 1 }]);
      const traceId = '0af7651916cd43dd8448eb211c80319c';
      let seen: string | undefined;
      await subscribe({ groupId: uniqueName('g'), topics: [topic], handle: async () => void (seen = trace.getActiveSpan()?.spanContext().traceId) });
      await bus.publish([{ ...msg(topic, 'k', {}), headers: { traceparent: `00-${traceId}-b7ad6b7169203331-01` } }]);
      await waitFor(() => seen !== undefined, 'handled');
      assert.equal(seen, traceId);
    });

    it('with an inbox, a redelivered event takes effect once', async () => {
      const topic = uniqueName('inbox');
      await bus.ensureTopics([{ name: topic, partitions: 2 }]);
      const inbox = await makeInbox();
      const eventId = randomUUID();
      let effects = 0;
      let deliveries = 0;
      await subscribe({
        groupId: uniqueName('g'),
        topics: [topic],
        handle: async (d) => {
          deliveries++;
          await inbox.handleOnce('contract-consumer', body<{ eventId: string }>(d).eventId, async () => void effects++);
        },
      });
      const duplicate = msg(topic, 'account-1', { eventId });
      await bus.publish([duplicate, duplicate]);
      await bus.publish([duplicate]);
      await waitFor(() => deliveries === 3, 'three deliveries');
      assert.equal(effects, 1);
    });
  });
}
