import { afterAll } from 'vitest';
import { KafkaBus, PostgresInbox, type Pool } from '../src/index.js';
import { busContract } from './contracts/bus-contract.js';
import { freshDatabase, requireEnv } from './support.js';

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
