import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'vitest';
import { metrics } from '@opentelemetry/api';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { defineObservables, defineObservablesOn, gaugesOver, instrument, METER_NAME } from './instruments.js';

/** A reader the test collects from by hand. */
class HandReader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

/** The data points of `name` in one collection: value per attributes (JSON). */
async function points(reader: HandReader, name: string): Promise<Record<string, number>> {
  const { resourceMetrics } = await reader.collect();
  const out: Record<string, number> = {};
  for (const scope of resourceMetrics.scopeMetrics)
    for (const metric of scope.metrics)
      if (metric.descriptor.name === name)
        for (const p of metric.dataPoints) out[JSON.stringify(p.attributes)] = p.value as number;
  return out;
}

function register(): HandReader {
  const reader = new HandReader();
  const provider = new MeterProvider({ readers: [reader] });
  metrics.setGlobalMeterProvider(provider);
  defineObservablesOn(provider.getMeter(METER_NAME));
  return reader;
}

describe('instruments made on first use', () => {
  afterEach(() => {
    defineObservablesOn(undefined);
    metrics.disable();
  });

  const counter = () => instrument('test.counter', (meter) => meter.createCounter('test.counter'));

  it('records into a provider registered after the instrument was first asked for (the API has no proxy)', async () => {
    counter().add(5); // no provider yet: a no-op, as at module load before an entry point starts metrics
    const reader = register();
    counter().add(2, { outcome: 'handled' });
    counter().add(1, { outcome: 'handled' });
    assert.deepEqual(await points(reader, 'test.counter'), { '{"outcome":"handled"}': 3 });
  });

  it('defines observable gauges on a provider started later, and again on the next one', async () => {
    let reading = 7;
    const define = (meter: Parameters<Parameters<typeof defineObservables>[0]>[0]) =>
      meter.createObservableGauge('test.gauge').addCallback((result) => result.observe(reading));
    defineObservables(define);
    const first = register();
    assert.deepEqual(await points(first, 'test.gauge'), { '{}': 7 });
    defineObservablesOn(undefined);
    metrics.disable();
    reading = 9;
    const second = register();
    assert.deepEqual(await points(second, 'test.gauge'), { '{}': 9 });
  });

  it('reads every tracked source at each collection, and no longer reads one once it is untracked', async () => {
    const reads: string[] = [];
    const track = gaugesOver<{ name: string; depth: number }, 'depth'>(
      { depth: { name: 'test.depth', description: 'Items waiting', unit: '{item}' } },
      (source, record) => {
        reads.push(source.name);
        record('depth', source.depth, { queue: source.name });
      },
    );
    const reader = register();
    const a = { name: 'a', depth: 3 };
    const untrackA = track(a);
    const untrackB = track({ name: 'b', depth: 1 });
    assert.deepEqual(await points(reader, 'test.depth'), { '{"queue":"a"}': 3, '{"queue":"b"}': 1 });
    a.depth = 4;
    untrackB();
    reads.length = 0;
    assert.equal((await points(reader, 'test.depth'))['{"queue":"a"}'], 4);
    assert.deepEqual(reads, ['a']);
    untrackA();
  });
});
