import { randomUUID } from 'node:crypto';
import { createPool, ensureDatabase, KafkaBus, runMigrations, platformMigrations, type Pool } from '../src/index.js';

/** Integration tests run only under `npm test`, which provisions the real services and sets these. */
export function requireEnv(name: 'DATABASE_URL' | 'KAFKA_BROKERS' | 'REDIS_URL' | 'STRIPE_MOCK_URL'): string {
  const value = process.env[name];
  if (!value)
    throw new Error(
      `${name} is not set: integration tests run through \`npm test\`, which provisions real infrastructure`,
    );
  return value;
}

/** A new, migrated database on the real server, so test files never see each other's rows. */
export async function freshDatabase(prefix = 'test'): Promise<Pool> {
  const name = `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const url = await ensureDatabase(requireEnv('DATABASE_URL'), name);
  const pool = createPool(url, 20);
  await runMigrations(pool, [platformMigrations]);
  return pool;
}

/** Polls until the condition holds; fails with the message if it never does (no timing is asserted). */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  message: string,
  timeoutMs = 30_000,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`Timed out waiting: ${message}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export const uniqueName = (prefix: string) => `${prefix}.${randomUUID().slice(0, 8)}`;

/** A fresh namespace on the test broker: `test.<12 hex>.` (ADR 0010). */
export const freshTopicPrefix = () => `test.${randomUUID().replaceAll('-', '').slice(0, 12)}.`;

/**
 * A KafkaBus on the test broker in a namespace of its own (a fresh topic prefix unless one is
 * given, e.g. to share one with a process the test starts: pass `bus.prefix` as
 * KAFKA_TOPIC_PREFIX). Its consumer groups start on empty topics, so they read this stack's
 * messages only, never the run's history. Closing it deletes the namespace's topics and groups,
 * so the one broker does not collect partitions; `keep` leaves them (for a second bus on the same
 * namespace that another closes).
 */
export function testKafkaBus(clientId: string, options: { prefix?: string; keep?: boolean } = {}): KafkaBus {
  return new KafkaBus({
    brokers: requireEnv('KAFKA_BROKERS').split(','),
    clientId,
    topicPrefix: options.prefix ?? freshTopicPrefix(),
    deleteNamespaceOnClose: !options.keep,
  });
}

/** A bus testKafkaBus made (its type as the tests see the platform's source). */
export type TestKafkaBus = KafkaBus;
