// Instruments that survive the order of start-up. OpenTelemetry's metrics API has no proxy: a
// meter taken before a MeterProvider is registered is a no-op for good, and modules are loaded
// before any entry point starts its provider. So instruments are made on first use against the
// provider registered then, and made again if it changes (a test that starts metrics late);
// observable gauges are defined by a function that runs again on every provider started.
import { type Attributes, metrics, type Meter, type MeterProvider, type ObservableGauge } from '@opentelemetry/api';

export type { Meter } from '@opentelemetry/api';

/** The instrumentation scope of every Flatlay instrument. */
export const METER_NAME = 'flatlay';

let provider: MeterProvider | undefined;
let cache = new Map<string, unknown>();

/**
 * The instrument `key`, made by `make` on the registered provider's meter the first time it is
 * asked for (a no-op one while no provider is registered). Cheap enough for every request: a
 * global read and a map lookup.
 */
export function instrument<T>(key: string, make: (meter: Meter) => T): T {
  const current = metrics.getMeterProvider();
  if (current !== provider) {
    provider = current;
    cache = new Map();
  }
  let made = cache.get(key) as T | undefined;
  if (made === undefined) {
    made = make(current.getMeter(METER_NAME));
    cache.set(key, made);
  }
  return made;
}

const gaugeDefinitions = new Set<(meter: Meter) => void>();
let gaugeMeter: Meter | undefined;

/**
 * Defines observable instruments (gauges whose values are read at each collection) now on the
 * running provider, if any, and again on every provider started later (startMetrics). `define`
 * is called once per provider; its callbacks read whatever sources are registered at that time.
 */
export function defineObservables(define: (meter: Meter) => void): void {
  if (gaugeDefinitions.has(define)) return;
  gaugeDefinitions.add(define);
  if (gaugeMeter) define(gaugeMeter);
}

/** Called by startMetrics with the new provider's meter (undefined once metrics stop). */
export function defineObservablesOn(meter: Meter | undefined): void {
  gaugeMeter = meter;
  if (meter) for (const define of gaugeDefinitions) define(meter);
}

/** A gauge's name and what it says, as OpenTelemetry takes them. */
export interface GaugeSpec {
  name: string;
  description: string;
  unit: string;
}

/** Writes one value of the gauge `key` (of those given to gaugesOver) for this collection. */
export type GaugeRecorder<K extends string> = (key: K, value: number, attributes?: Attributes) => void;

/**
 * Gauges read at each collection from every registered source (a database pool, a worker, a
 * subscription): `observe` reads one source and records its values. Returns `track`, which
 * registers a source until the function it returns is called (a stopped component is no longer
 * read). Sources are read one after another: some clients (kafkajs' admin) mix up concurrent reads.
 */
export function gaugesOver<S, K extends string>(
  gauges: Record<K, GaugeSpec>,
  observe: (source: S, record: GaugeRecorder<K>) => void | Promise<void>,
): (source: S) => () => void {
  const sources = new Set<S>();
  const define = (meter: Meter) => {
    const made = new Map<K, ObservableGauge>();
    for (const [key, { name, description, unit }] of Object.entries(gauges) as [K, GaugeSpec][])
      made.set(key, meter.createObservableGauge(name, { description, unit }));
    meter.addBatchObservableCallback(
      async (result) => {
        for (const source of [...sources])
          await observe(source, (key, value, attributes) =>
            result.observe(made.get(key) as ObservableGauge, value, attributes),
          );
      },
      [...made.values()],
    );
  };
  return (source) => {
    defineObservables(define);
    sources.add(source);
    return () => {
      sources.delete(source);
    };
  };
}

/**
 * Runs an observation that reads something slow (a database, a broker) with a time limit: a
 * scrape never waits long on one stuck source, which then reports nothing this time.
 */
export async function withinMs<T>(ms: number, work: () => Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work(),
      new Promise<undefined>((ok) => {
        timer = setTimeout(() => ok(undefined), ms);
      }),
    ]);
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

/** Histogram bounds for request and call durations, in seconds (OpenTelemetry's HTTP advice). */
export const LATENCY_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
/** Histogram bounds for background work that takes seconds to minutes (a generation, a stage). */
export const JOB_BUCKETS_S = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300, 600];
