import assert from 'node:assert/strict';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, describe, it } from 'vitest';
import {
  deadLetterTopic,
  KafkaBus,
  PoisonMessage,
  PostgresInbox,
  type Delivery,
  type Pool,
  type Subscription,
} from '../src/index.js';
import { busContract } from './contracts/bus-contract.js';
import { freshDatabase, freshTopicPrefix, requireEnv, testKafkaBus, uniqueName, waitFor } from './support.js';

const pools: Pool[] = [];
afterAll(async () => Promise.all(pools.map((p) => p.end())));

busContract(
  'Kafka',
  // In a namespace of its own: the contract also holds behind a topic prefix.
  async () => testKafkaBus('bus-contract'),
  async () => {
    const pool = await freshDatabase('inbox');
    pools.push(pool);
    return new PostgresInbox(pool);
  },
);

describe('KafkaBus.ensureTopics', () => {
  it('lets several processes create the same new topics at once, each returning once every partition has a leader', async () => {
    // Four processes of one stack: one namespace, which the first deletes when it closes.
    const prefix = freshTopicPrefix();
    const buses = Array.from({ length: 4 }, (_, i) => testKafkaBus(`topic-race-${i}`, { prefix, keep: i > 0 }));
    try {
      for (let round = 0; round < 3; round++) {
        const wanted = [1, 2, 3].map((n) => ({ name: `${uniqueName('race')}.${round}.${n}`, partitions: 3 }));
        await Promise.all(buses.map((bus) => bus.ensureTopics(wanted)));
        // Every bus can publish to every topic at once: the topics exist and have leaders.
        await Promise.all(
          buses.map((bus) =>
            bus.publish(wanted.map((t) => ({ topic: t.name, key: 'k', value: Buffer.from([1]), headers: {} }))),
          ),
        );
      }
    } finally {
      await Promise.all(buses.slice(1).map((bus) => bus.close()));
      await buses[0]!.close();
    }
  });
});

describe('KafkaBus namespaces (topicPrefix)', { timeout: 120_000 }, () => {
  it('keeps two stacks on one broker apart: each group starts with no history and sees its own namespace only', async () => {
    // Two stacks, each with the same logical topic and group names, as two test files have.
    const a = testKafkaBus('namespace-a');
    const b = testKafkaBus('namespace-b');
    const topic = 'orders.v1';
    const groupId = 'shop';
    const seen: Record<'a' | 'b', Delivery[]> = { a: [], b: [] };
    const poison = new Set(['bad']);
    const subscriptions: Subscription[] = [];
    try {
      await Promise.all([a, b].map((bus) => bus.ensureTopics([{ name: topic, partitions: 1 }])));
      // A's history, written before B's group exists: on one shared topic B's group (from the
      // beginning, as every service's) would read it first, since the topic has one partition.
      await a.publish(['a1', 'a2', 'a3'].map((v) => ({ topic, key: v, value: Buffer.from(v), headers: {} })));
      assert.equal(await b.consumerLag(groupId, topic), 0, "B's group starts with nothing to read");
      assert.equal(await a.consumerLag(groupId, topic), 3);
      for (const [name, bus] of [
        ['a', a],
        ['b', b],
      ] as const)
        subscriptions.push(
          await bus.subscribe({
            groupId,
            topics: [topic],
            retryDelayMs: 10,
            handle: async (d) => {
              if (poison.has(d.value.toString())) throw new PoisonMessage('not a valid order');
              seen[name].push(d);
            },
          }),
        );
      await b.publish(['b1', 'bad', 'b2'].map((v) => ({ topic, key: v, value: Buffer.from(v), headers: {} })));
      await waitFor(() => seen.a.length === 3 && seen.b.length === 2, 'each group reads its own messages');
      await waitFor(async () => (await b.consumerLag(groupId, topic)) === 0, "B's group done");
      assert.deepEqual(
        seen.a.map((d) => d.value.toString()),
        ['a1', 'a2', 'a3'],
      );
      assert.deepEqual(
        seen.b.map((d) => d.value.toString()),
        ['b1', 'b2'],
      );
      // The application sees logical names only.
      assert.deepEqual(new Set([...seen.a, ...seen.b].map((d) => d.topic)), new Set([topic]));
      assert.deepEqual(subscriptions[1]!.assignment().get(topic), [0]);
      // B's poison message is B's dead letter, listed in logical names; A has none.
      const letters = await b.listDeadLetters();
      assert.deepEqual(
        letters.map((l) => [l.deadLetterTopic, l.topic, l.groupId, l.count]),
        [[deadLetterTopic(topic, groupId), topic, groupId, 1]],
      );
      assert.deepEqual(await a.listDeadLetters(), []);
      // Replaying it publishes to B's namespace again (where it fails again, but A never sees it).
      assert.equal(await b.replayDeadLetters(deadLetterTopic(topic, groupId)), 1);
      await waitFor(
        async () => (await b.listDeadLetters())[0]?.count === 1 && (await b.consumerLag(groupId, topic)) === 0,
        'the replayed letter is set aside again',
      );
      assert.equal(seen.a.length, 3);
    } finally {
      await Promise.allSettled(subscriptions.map((s) => s.close()));
      await a.close();
      await b.close();
    }
    // Closing a test bus deletes its namespace's topics: the one broker does not collect them.
    const admin = new Kafka({ brokers: requireEnv('KAFKA_BROKERS').split(','), logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    try {
      const left = (await admin.listTopics()).filter((t) => t.startsWith(a.prefix) || t.startsWith(b.prefix));
      assert.deepEqual(left, []);
    } finally {
      await admin.disconnect();
    }
  });

  it('refuses to delete a namespace without a prefix (that would be every topic)', async () => {
    const bus = new KafkaBus({ brokers: requireEnv('KAFKA_BROKERS').split(','), clientId: 'no-namespace' });
    try {
      await assert.rejects(bus.deleteNamespace(), /needs a topic prefix/);
    } finally {
      await bus.close();
    }
  });
});
