// One test runner for every package: vitest. Tiers stay in the file names (`*.unit|int|e2e|k8s.spec.ts`);
// scripts/test.mjs picks the files, provisions real infrastructure for the int and e2e tiers and
// hands vitest the list. Workspace packages resolve through their `source` export condition, so
// tests run the TypeScript sources, not a stale dist/.
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';
import SlowTiersFirst from './scripts/test/sequencer.ts';

const conditions = ['source', ...defaultServerConditions.filter((c) => c !== 'module')];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    exclude: ['**/node_modules/**', '**/dist/**', '**/.*/**'],
    environment: 'node',
    // Testing Library's waits for the web app's jsdom tests (web/src/test/dom-setup.ts).
    setupFiles: ['./web/src/test/dom-setup.ts'],
    // Files run in separate processes (native addons such as onnxruntime and sharp, and servers
    // bound to ports, do not share a worker well); two at a time on the project's 2-core machines.
    pool: 'forks',
    maxWorkers: 2,
    // Slow tiers start first, so neither worker idles through a long file at the end.
    sequence: { sequencer: SlowTiersFirst },
    // Integration tests start real services and Kafka consumers: the defaults (5 s / 10 s) are
    // for unit tests. These are ceilings against hangs, not timing assertions.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    teardownTimeout: 60_000,
    reporters: ['default', './scripts/test/summary-reporter.ts'],
    // The fault tier (tests/fault, ADR 0011) owns a Postgres and Kafka of its own and stops and
    // restarts them, so it runs beside the other tiers' files (which use the shared ones): it
    // starts first (scripts/test/sequencer.ts) and takes one of the two workers for its length,
    // rather than adding it to the run's end. One run, so the closing line counts both.
    projects: [
      {
        extends: true,
        test: {
          name: 'tiers',
          include: ['{proto,services,gateway,apps,web,tests,scripts}/**/*.{unit,int,e2e,k8s,container}.spec.{ts,tsx}'],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'fault',
          include: ['tests/fault/**/*.fault.spec.ts'],
          sequence: { groupOrder: 0 },
          // Its own ceilings: one file whose faults run one after another.
          testTimeout: 240_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
