// npm run bench:projections: how many events per second the analytics projections absorb from
// Kafka (a backlog of generated events, consumed as the service consumes them: consumer group,
// inbox, read models), and the lag (published -> applied) at a steady 500 events per second.
// Needs DATABASE_URL and KAFKA_BROKERS (npm run infra:up prints them). The events go to topics of
// this run's own (bench-<run>.<topic>), so no service or test consuming the real topics sees them.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { topics } from '@flatlay/proto';
import { decodeEnvelope, KafkaBus, type BusMessage, type Delivery } from '@flatlay/platform';
import { analyticsEventHandler } from '../src/consumers/analytics-consumer.js';
import { freshAnalyticsDatabase, generatedHistory } from '../test/events.js';

const BACKLOG = Number(process.env.BENCH_EVENTS ?? 20_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const RATE = 500;
const brokers = process.env.KAFKA_BROKERS;
if (!brokers || !process.env.DATABASE_URL)
  throw new Error('DATABASE_URL and KAFKA_BROKERS must be set (npm run infra:up)');

const run = randomUUID().replaceAll('-', '').slice(0, 8);
const benchTopic = (t: string) => `bench-${run}.${t}`;
const realTopic = new Map(Object.values(topics).map((t) => [benchTopic(t), t]));
const pool = await freshAnalyticsDatabase('analytics_bench_projections');
const bus = new KafkaBus({ brokers: brokers.split(','), clientId: `bench-projections-${run}` });
const handle = analyticsEventHandler(pool);
const published = new Map<string, number>();
const lags: number[] = [];
let applied = 0;
let firstAppliedAt = 0;
let lastAppliedAt = 0;

const toBus = (d: Delivery): BusMessage => ({ topic: benchTopic(d.topic), key: d.key, value: d.value, headers: {} });
const waitUntil = async (done: () => boolean, what: string, timeoutMs = 600_000) => {
  const until = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > until) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

try {
  await bus.ensureTopics([...realTopic.keys()].map((name) => ({ name, partitions: 6 })));
  // 1. Throughput: a backlog published first, then absorbed as fast as the consumer can.
  const backlog = generatedHistory(BACKLOG, new Date(), 1);
  for (let i = 0; i < backlog.length; i += 1000) await bus.publish(backlog.slice(i, i + 1000).map(toBus));
  const subscription = await bus.subscribe({
    groupId: `bench-projections-${run}`,
    topics: [...realTopic.keys()],
    handle: async (d) => {
      await handle({ ...d, topic: realTopic.get(d.topic)! });
      const now = performance.now();
      if (applied++ === 0) firstAppliedAt = now;
      lastAppliedAt = now;
      const sent = published.get(decodeEnvelope(d.value).eventId);
      if (sent !== undefined) lags.push(now - sent);
    },
  });
  await waitUntil(() => applied >= BACKLOG, 'the backlog to be absorbed');
  const throughput = (BACKLOG - 1) / ((lastAppliedAt - firstAppliedAt) / 1000);

  // 2. Lag at a steady 500 events per second (50 every 100 ms), new users' histories.
  const steady = generatedHistory(RATE * SECONDS, new Date(), 2);
  const start = performance.now();
  // Publishing does not wait for the previous batch's acknowledgement, so the offered rate holds.
  const sends: Array<Promise<void>> = [];
  for (let tick = 0; tick * 50 < steady.length; tick++) {
    const batch = steady.slice(tick * 50, tick * 50 + 50);
    const due = start + tick * 100;
    await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
    const at = performance.now();
    for (const d of batch) published.set(decodeEnvelope(d.value).eventId, at);
    sends.push(bus.publish(batch.map(toBus)));
  }
  await Promise.all(sends);
  const offered = steady.length / ((performance.now() - start) / 1000);
  await waitUntil(() => applied >= BACKLOG + steady.length, 'the steady events to be absorbed');
  await subscription.close();
  lags.sort((a, b) => a - b);
  const at = (p: number) => lags[Math.min(lags.length - 1, Math.floor(p * lags.length))]!;
  console.log(`backlog: ${BACKLOG} events absorbed at ${throughput.toFixed(0)} events/s (sustained)`);
  console.log(
    `steady:  ${steady.length} events at ${RATE}/s: lag p50 ${at(0.5).toFixed(0)} ms, p99 ${at(0.99).toFixed(0)} ms, max ${lags.at(-1)!.toFixed(0)} ms`,
  );
  console.log(
    `sustained throughput ${throughput >= RATE ? 'keeps up with' : 'FALLS BEHIND'} the ${RATE}/s offered (${throughput.toFixed(0)} vs ${RATE}; offered ${offered.toFixed(0)}/s measured)`,
  );
} finally {
  await bus.close();
  const name = (await pool.query<{ db: string }>('SELECT current_database() AS db')).rows[0]!.db;
  await pool.end();
  const { createPool } = await import('@flatlay/platform');
  const admin = createPool(process.env.DATABASE_URL!, 1);
  await admin.query(`DROP DATABASE IF EXISTS ${name}`).catch(() => undefined);
  await admin.end();
}
