// The generation worker as its own process, exactly as the chart's image-worker starts it
// (runStandalone + createGenerationWorkerService: environment, bus, database, ledger, leases), on
// a test engine chosen by TEST_ENGINE, so a test can kill it mid-job and start it again:
//   hang      prints `engine started` when a job reaches the engine, and never finishes it;
//   complete  answers a small real JPEG result and preview at once.
import sharp from 'sharp';
import { runStandalone } from '@flatlay/platform';
import { createGenerationWorkerService } from '../../src/service.js';
import type { EnhanceEngine } from '../../src/worker/generation-worker.js';

const engines: Record<string, EnhanceEngine> = {
  hang: {
    enhance() {
      process.stdout.write('engine started\n');
      return new Promise(() => undefined);
    },
    async close() {},
  },
  complete: {
    async enhance() {
      const full = await sharp({ create: { width: 80, height: 60, channels: 3, background: '#ffffff' } })
        .jpeg()
        .toBuffer();
      return { full, preview: full, thumbnail: full, width: 80, height: 60, format: 'jpeg' } as never;
    },
    async close() {},
  },
};

const engine = engines[process.env.TEST_ENGINE ?? ''];
if (!engine) throw new Error(`TEST_ENGINE must be one of ${Object.keys(engines).join(', ')}`);
await runStandalone(createGenerationWorkerService({ engine: async () => engine }));
process.stdout.write('worker ready\n');
