import { afterAll, describe, it } from 'vitest';
import { KafkaBus, PostgresInbox, type Pool } from '../src/index.js';
import { busContract } from './contracts/bus-contract.js';
import { freshDatabase, requireEnv, uniqueName } from './support.js';

const pools: Pool[] = [];
afterAll(async () => Promise.all(pools.map((p) => p.end())));

busContract(
  'Kafka',
  async () => new KafkaBus({ brokers: requireEnv('KAFKA_BROKERS').split(','), clientId: 'bus-contract' }),
  async () => {
    const pool = await freshDatabase('inbox');
    pools.push(pool);
    return new PostgresInbox(pool);
  },
);

describe('KafkaBus.ensureTopics', () => {
  it('lets several processes create the same new topics at once, each returning once every partition has a leader', async () => {
    const brokers = requireEnv('KAFKA_BROKERS').split(',');
    const buses = Array.from({ length: 4 }, (_, i) => new KafkaBus({ brokers, clientId: `topic-race-${i}` }));
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
      await Promise.all(buses.map((bus) => bus.close()));
    }
  });
});
