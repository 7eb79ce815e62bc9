// The generation worker as its own process, composed as the chart's image-worker is
// (createGenerationWorkerService on Kafka: environment, its own key, database, ledger, leases, signals), in the
// test's own database (TEST_DATABASE; runStandalone would take the shared `flatlay_image`), on a
// test engine chosen by TEST_ENGINE, so a test can kill it mid-job and start it again:
//   hang      prints `engine started` when a job reaches the engine, and never finishes it;
//   complete  answers a small real JPEG result and preview at once;
//   complete-or-refuse  the same, but refuses a photo 33 pixels wide (the job fails after its
//             attempts and its charge is refunded: the fault suite's failing generations).
import sharp from 'sharp';
import { createBus, createLogger, serviceKeysFromEnv, startService, stopOnSignals } from '@flatlay/platform';
import { createGenerationWorkerService } from '../../src/service.js';
import type { EnhanceEngine } from '../../src/app/generation-worker.js';
import { instantEngine } from './instant-engine.js';

const engines: Record<string, EnhanceEngine> = {
  hang: {
    enhance() {
      process.stdout.write('engine started\n');
      return new Promise(() => undefined);
    },
    async close() {},
  },
  complete: instantEngine,
  'complete-or-refuse': {
    async enhance(input, options) {
      if ((await sharp(input).metadata()).width === REFUSED_WIDTH)
        throw new Error('the stand-in engine refuses this photo');
      return instantEngine.enhance(input, options);
    },
    async close() {},
  },
};

/** The width of the photos the `complete-or-refuse` engine refuses. */
const REFUSED_WIDTH = 33;
const engine = engines[process.env.TEST_ENGINE ?? ''];
if (!engine) throw new Error(`TEST_ENGINE must be one of ${Object.keys(engines).join(', ')}`);
const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} must be set`);
  return value;
};
const logger = createLogger('image-worker', 'warn');
// On the test's topics (KAFKA_TOPIC_PREFIX, its namespace on the shared test broker; the fault
// tier's broker is its own and has none).
const bus = createBus(
  env('KAFKA_BROKERS').split(','),
  'image-worker-test',
  undefined,
  process.env.KAFKA_TOPIC_PREFIX || undefined,
);
const running = await startService(createGenerationWorkerService({ engine: async () => engine }), {
  databaseUrl: env('DATABASE_URL'),
  database: env('TEST_DATABASE'),
  bus,
  grpcPort: 0,
  logger,
  // Its own key, as the chart's image-worker (SERVICE_PRIVATE_KEY, SERVICE_PUBLIC_KEYS_DIR).
  serviceKeys: serviceKeysFromEnv('image-worker'),
});
stopOnSignals(async () => {
  await running.stop();
  await bus.close();
}, logger);
process.stdout.write('worker ready\n');
