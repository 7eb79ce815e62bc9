// One test runner for every package: vitest. Tiers stay in the file names (`*.unit|int|e2e|k8s.spec.ts`);
// scripts/test.mjs picks the files, provisions real infrastructure for the int and e2e tiers and
// hands vitest the list. Workspace packages resolve through their `source` export condition, so
// tests run the TypeScript sources, not a stale dist/.
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';
import { unitFilesThatMock } from './scripts/test/module-mocks.ts';
import { SPEC_ROOTS } from './scripts/test/spec-files.mjs';
import SlowTiersFirst from './scripts/test/sequencer.ts';

const conditions = ['source', ...defaultServerConditions.filter((c) => c !== 'module')];
const SPECS = `{${SPEC_ROOTS.join(',')}}/**/*`;
const EXCLUDE = ['**/node_modules/**', '**/dist/**', '**/.*/**'];
// Unit files that replace modules with vi.mock run isolated (scripts/test/module-mocks.ts).
const unitMocking = unitFilesThatMock(import.meta.dirname);

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    exclude: EXCLUDE,
    environment: 'node',
    // Testing Library's waits for the web app's jsdom tests (web/src/test/dom-setup.ts).
    setupFiles: ['./web/src/test/dom-setup.ts'],
    // Child processes, not threads (native addons such as onnxruntime and sharp do not share a
    // thread pool well): two at a time on the project's 2-core machines. The `tiers` project's
    // files have a process each; the `shared` project's files take turns in one per worker.
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
      // The slow tiers' few long files (browser journeys, fuzzing, a cluster, containers), and the
      // unit files that mock modules: a process each.
      {
        extends: true,
        test: {
          name: 'tiers',
          include: [`${SPECS}.{e2e,k8s,container}.spec.{ts,tsx}`, ...unitMocking],
          sequence: { groupOrder: 0 },
        },
      },
      // The unit and int tiers' many short files share one process per worker instead of one each
      // (ADR 0310): most of such a file's time was its process, vitest's start and the import of
      // node_modules. Before each file, scripts/test/fresh-file.ts puts back what a file could leave
      // to the next (its modules are evaluated afresh).
      {
        extends: true,
        test: {
          name: 'shared',
          include: [`${SPECS}.{unit,int}.spec.{ts,tsx}`],
          exclude: [...EXCLUDE, ...unitMocking],
          isolate: false,
          setupFiles: ['./scripts/test/fresh-file.ts'],
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
