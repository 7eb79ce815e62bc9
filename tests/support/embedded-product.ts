// The product as `npm start` runs it, for the tests that start apps/embedded/dist/embedded.js as a
// process: the environment that keeps it on its own defaults, and the wait for it to be healthy.
import type { ChildProcess } from 'node:child_process';
import { waitFor } from '../../services/platform/test/support.js';

/**
 * The embedded default's environment on `port` with its data in `dataDir`: embedded Postgres, the
 * in-process bus, no Redis, and files in the data folder, whatever DATABASE_URL, KAFKA_BROKERS,
 * REDIS_URL or S3_* the test infrastructure exported. `more` adds to it or overrides it.
 */
export function embeddedEnv(port: number, dataDir: string, more: Record<string, string> = {}): Record<string, string> {
  return {
    PORT: String(port),
    HOST: '127.0.0.1',
    // Metrics on a free port: several products run side by side in a test run.
    METRICS_PORT: '0',
    FLATLAY_DATA_DIR: dataDir,
    DATABASE_URL: '',
    KAFKA_BROKERS: '',
    REDIS_URL: '',
    // The embedded default keeps files in its data folder, not in the test infrastructure's bucket.
    S3_BUCKET: '',
    S3_ENDPOINT: '',
    // Several sign-ups from one address in one test (the bound itself: gateway/test/sign-up-bound.int.spec.ts).
    SIGNUPS_PER_CLIENT_PER_HOUR: '1000',
    ...more,
  };
}

/**
 * Waits until the product at `base` answers /healthz with 200, or its process has exited (the
 * caller then reports the process's output); the first start creates a database cluster.
 */
export async function untilHealthy(
  base: string,
  child: ChildProcess,
  what = 'the product to be healthy',
): Promise<void> {
  await waitFor(
    async () =>
      child.exitCode !== null ||
      (await fetch(`${base}/healthz`).then(
        (r) => r.status === 200,
        () => false,
      )),
    what,
    180_000,
  );
}
