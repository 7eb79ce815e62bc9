// Runs before every file of the `shared` project (vitest.config.ts: the unit and int tiers), whose
// files share one process per worker (`isolate: false`, ADR 0310): that saves each file a new
// process, vitest's own start and the import of node_modules (OpenTelemetry, gRPC, Kafka's and
// Postgres' clients, sharp, onnxruntime, React, jsdom), most of a short file's time. What a file
// could leave behind for the next one is put back here, so each file still starts as if alone:
// - the project's own modules are evaluated afresh (their module-level state: caches, stores,
//   registries, counters); node_modules stay loaded, shared as in any one process;
// - globals and environment variables stubbed through vi, fake timers, and any variable of
//   process.env set or removed directly are undone;
// - in jsdom (the web app's component tests), web/src/test/dom-setup.ts empties storage, cookies,
//   the document and the URL: the environment is created once per worker, so it is reset there.
// Files that replace modules with vi.mock stay isolated (scripts/test/module-mocks.ts): vitest
// empties its registry of mocked modules only between isolated files.
import { vi } from 'vitest';

vi.resetModules();
vi.unstubAllGlobals();
vi.unstubAllEnvs();
vi.useRealTimers();

// The environment as the worker's first file found it. vitest's own variables (VITEST_*) are its
// to set for each file, so they are left alone.
const FIRST_ENV = Symbol.for('flatlay.test.first-env');
const state = globalThis as { [FIRST_ENV]?: Record<string, string | undefined> };
state[FIRST_ENV] ??= { ...process.env };
const first = state[FIRST_ENV];
const ours = (name: string) => !name.startsWith('VITEST');
for (const name of Object.keys(process.env)) if (ours(name) && !(name in first)) delete process.env[name];
for (const [name, value] of Object.entries(first)) if (ours(name) && value !== undefined) process.env[name] = value;
