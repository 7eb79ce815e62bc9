// The product as `npm start` runs it, for the tests that start apps/embedded/dist/embedded.js as a
// process: the environment that keeps it on its own defaults, and the wait for it to be healthy.
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { steadyPort } from '../../services/platform/test/ports.js';
import { startNode, type ChildRun } from '../../services/platform/test/process.js';
import { requireEnv, waitFor } from '../../services/platform/test/support.js';

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
    // healthy in 4-19 s on CI's two loaded cores (the first start included); no wait in a test is
    // as long as 100 s
    90_000,
  );
}

/**
 * The product as a process a test kills (SIGKILL) and starts again on the same data: databases of
 * its own on the test Postgres (`<name>_<run>_<service>`, so no other product's rows meet its own)
 * and a data folder of its own. `start(env)` starts it with more settings and waits until it is
 * healthy; every process started is killed, and the folder removed, by `cleanup`.
 */
export async function restartableProduct(name: string, cleanup: Array<() => Promise<unknown>>) {
  const databaseUrl = requireEnv('DATABASE_URL');
  const prefix = `${name}_${randomUUID().replaceAll('-', '').slice(0, 8)}_`;
  const dataDir = await mkdtemp(join(tmpdir(), `flatlay-${name}-`));
  cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
  const port = await steadyPort();
  const base = `http://127.0.0.1:${port}`;
  const start = async (env: Record<string, string> = {}): Promise<ChildRun> => {
    const proc = startNode(
      ['apps/embedded/dist/embedded.js'],
      embeddedEnv(port, dataDir, {
        DATABASE_URL: databaseUrl,
        DATABASE_NAME_PREFIX: prefix,
        LOG_LEVEL: 'warn',
        ...env,
      }),
    );
    cleanup.push(async () => {
      proc.child.kill('SIGKILL');
      await proc.exited;
    });
    await untilHealthy(base, proc.child);
    if (proc.child.exitCode !== null) throw new Error(`the product exited at start:\n${proc.output()}`);
    return proc;
  };
  return { base, databaseUrl, prefix, start };
}
