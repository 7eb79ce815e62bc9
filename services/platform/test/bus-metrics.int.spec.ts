// The consumer metrics of both bus adapters, scraped from /metrics: a handled message, a message
// whose handler fails once (retried, then handled), a poison message (dead-lettered), and the
// group's lag while its handler holds a message back, and after.
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from 'vitest';
import {
  type Bus,
  InProcessBus,
  PoisonMessage,
  type RunningMetrics,
  startMetrics,
  stopMetrics,
  type Subscription,
} from '../src/index.js';
import { scrape, seriesValue } from './metrics-scrape.js';
import { testKafkaBus, uniqueName, waitFor } from './support.js';

let metrics: RunningMetrics;
beforeAll(async () => {
  metrics = await startMetrics({ serviceName: 'bus-metrics-test', port: 0, host: '127.0.0.1' });
});
afterAll(() => stopMetrics());

const adapters: Array<[string, () => Bus]> = [
  ['in-process', () => new InProcessBus()],
  ['Kafka', () => testKafkaBus('bus-metrics')],
];

describe.each(adapters)('consumer metrics on the %s bus', (_name, makeBus) => {
  let bus: Bus;
  const subscriptions: Subscription[] = [];
  beforeAll(() => {
    bus = makeBus();
  });
  afterAll(async () => {
    for (const s of subscriptions) await s.close();
    await bus.close();
  });

  const send = (topic: string, ...values: string[]) =>
    bus.publish(values.map((v) => ({ topic, key: 'one-key', value: Buffer.from(v), headers: {} })));

  it('counts handled, retried and dead-lettered deliveries per group and topic', async () => {
    const topic = uniqueName('metrics.outcomes');
    const groupId = uniqueName('outcomes');
    await bus.ensureTopics([{ name: topic, partitions: 1 }]);
    let failuresLeft = 1;
    subscriptions.push(
      await bus.subscribe({
        groupId,
        topics: [topic],
        retryDelayMs: 10,
        handle: async (d) => {
          const value = d.value.toString();
          if (value === 'poison') throw new PoisonMessage('never decodes');
          if (value === 'flaky' && failuresLeft-- > 0) throw new Error('database away for a moment');
        },
      }),
    );
    await send(topic, 'fine', 'flaky', 'poison', 'fine');
    const labels = (outcome: string) => ({
      messaging_consumer_group_name: groupId,
      messaging_destination_name: topic,
      flatlay_outcome: outcome,
    });
    const count = async (outcome: string) =>
      seriesValue(await scrape(metrics.url!), 'flatlay_messaging_consumer_messages_total', labels(outcome)) ?? 0;
    await waitFor(async () => (await count('handled')) === 3 && (await count('dead_lettered')) === 1, 'every outcome');
    assert.equal(await count('retried'), 1);
    const samples = await scrape(metrics.url!);
    assert.equal(seriesValue(samples, 'messaging_process_duration_count', labels('handled')), 3);
  });

  it("reports the group's lag while its handler holds messages back, and none once they are handled", async () => {
    const topic = uniqueName('metrics.lag');
    const groupId = uniqueName('lag');
    await bus.ensureTopics([{ name: topic, partitions: 1 }]);
    let release: () => void = () => undefined;
    const held = new Promise<void>((ok) => {
      release = ok;
    });
    subscriptions.push(await bus.subscribe({ groupId, topics: [topic], handle: () => held }));
    await send(topic, 'a', 'b', 'c');
    const lag = async () =>
      seriesValue(await scrape(metrics.url!), 'flatlay_messaging_consumer_lag', {
        messaging_consumer_group_name: groupId,
        messaging_destination_name: topic,
      });
    await waitFor(async () => (await lag()) === 3, 'three messages not yet committed');
    release();
    await waitFor(async () => (await lag()) === 0, 'no lag once they are handled');
  });
});
