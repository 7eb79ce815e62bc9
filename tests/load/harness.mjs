// What the load suite's runners share (`npm run bench:api`, `npm run load`, tests/load-smoke.e2e.spec.ts):
// free ports, child processes started and stopped, bare Express (the limit), the product as `npm start`
// runs it (apps/embedded/dist/embedded.js on its own data folder), k6 runs, and the k6 scenarios' list.
// Node built-ins only (and the repository's own scripts).
import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../scripts/lib/steps.mjs';

export const loadDir = join(repoRoot, 'tests', 'load');

/**
 * The shapes are declared once, in harness.d.mts (what the TypeScript callers see).
 * @import { ChildProcess } from 'node:child_process'
 * @import { AddressInfo } from 'node:net'
 * @import { ScenarioFigures, Started } from './harness.d.mts'
 */

/**
 * The k6 scenarios of tests/load/scenarios/, in the order `npm run load` runs them. `vus`: connections
 * in the load run (each as fast as it goes); `againstBare`: its requests/s is compared with bare
 * Express (plain GETs; sign-up and sign-in hash passwords by design, generation runs the engine).
 */
export const SCENARIOS = Object.freeze([
  // First: its users fill the admin dashboard's table (about a thousand in a 15 s run).
  {
    name: 'sign-up-in',
    script: 'sign-up-in.js',
    vus: 10,
    againstBare: false,
    what: 'register a new user, then log in',
  },
  {
    name: 'browse',
    script: 'browse.js',
    vus: 50,
    againstBare: true,
    what: 'pricing page: index.html, a JS asset, config, products',
  },
  {
    name: 'me-balance',
    script: 'me-balance.js',
    vus: 50,
    againstBare: true,
    what: 'GET /api/auth/me and /api/tokens/balance',
  },
  {
    name: 'admin-dashboard',
    script: 'admin-dashboard.js',
    vus: 10,
    againstBare: true,
    what: 'admin users page and the four stats',
  },
  // Last: the engine's work must not run under the other scenarios.
  {
    name: 'generate-poll',
    script: 'generate-poll.js',
    vus: 4,
    againstBare: false,
    what: 'upload a small JPEG, poll to its end',
  },
]);

/** Rate limits raised for a load run: every sign-up and sign-in comes from one address. */
export const LOAD_RATE_LIMITS = Object.freeze({
  AUTH_RATE_LIMIT_PER_IP: '1000000',
  AUTH_RATE_LIMIT_PER_EMAIL: '1000000',
  AUTH_RATE_LIMIT_PER_EMAIL_ANY_IP: '1000000',
  SIGNUPS_PER_CLIENT_PER_HOUR: '1000000',
  // And any guest's tries, all from that address.
  ANON_GENERATIONS_PER_IP_PER_HOUR: '1000000',
  ANON_GENERATIONS_PER_EMAIL_PER_HOUR: '1000000',
  ANON_UNFINISHED_TRIES_PER_GUEST: '1000000',
});

/** @returns {Promise<number>} */
export const freePort = () =>
  new Promise((ok, fail) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {AddressInfo} */ (s.address());
      s.close(() => ok(port));
    });
    s.on('error', fail);
  });

/** Every process started here and still running. @type {Set<ChildProcess>} */
const children = new Set();

/** Ctrl-C or SIGTERM kills what was started here and exits (for the command-line runners, not tests). */
export function stopChildrenOnSignals() {
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM']))
    process.on(signal, () => {
      for (const c of children) c.kill('SIGKILL');
      process.exit(130);
    });
}

/**
 * Starts a Node process and resolves once its output matches `ready` ({ child, match, output() });
 * its output goes to `logFile` when given. Rejects when it exits first or does not get ready in time.
 * @param {string} label @param {string[]} args @param {Record<string, string | undefined>} env
 * @param {RegExp} ready @param {{ logFile?: string, timeoutMs?: number }} [options]
 * @returns {Promise<Started>}
 */
export function startProcess(label, args, env, ready, { logFile, timeoutMs = 180_000 } = {}) {
  // Metrics on a free port unless told otherwise: several processes run side by side here.
  const child = spawn(process.execPath, args, { cwd: repoRoot, env: { METRICS_PORT: '0', ...process.env, ...env } });
  children.add(child);
  child.once('exit', () => children.delete(child));
  // The output's last 200 kB, for failure messages.
  let log = '';
  const output = () => log;
  /** @param {Buffer} c */
  const keep = (c) => {
    log = (log + c.toString()).slice(-200_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  if (logFile) {
    writeFileSync(logFile, '');
    /** @param {Buffer} c */
    const write = (c) => appendFileSync(logFile, c);
    child.stdout.on('data', write);
    child.stderr.on('data', write);
  }
  return new Promise((ok, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`${label} did not start in ${timeoutMs / 1000} s:\n${output().slice(-3000)}`)),
      timeoutMs,
    );
    let stdout = '';
    /** @param {Buffer} chunk */
    const onData = (chunk) => {
      stdout += chunk.toString();
      const m = stdout.match(ready);
      if (m) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        ok({ child, match: m, output });
      }
    };
    child.stdout.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`${label} exited (${code}):\n${output().slice(-3000)}`));
    });
  });
}

/**
 * SIGTERM, then SIGKILL after 20 s; resolves once the process is gone.
 * @param {ChildProcess} child @returns {Promise<void>}
 */
export function stopProcess(child) {
  return /** @type {Promise<void>} */ (
    new Promise((ok) => {
      if (child.exitCode !== null || child.signalCode !== null) return ok();
      child.removeAllListeners('exit');
      child.once('exit', () => {
        children.delete(child);
        ok();
      });
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 20_000).unref();
    })
  );
}

/** Bare Express (tests/load/bare-express.mjs): every path answers 200 {"balance":200}. */
export async function startBareExpress() {
  const bare = await startProcess('bare Express', [join(loadDir, 'bare-express.mjs')], {}, /listening (\d+)/);
  return { ...bare, base: `http://127.0.0.1:${bare.match[1]}`, stop: () => stopProcess(bare.child) };
}

/**
 * The product as `npm start` runs it after its build (apps/embedded/dist/embedded.js: every service,
 * embedded PostgreSQL, in-process bus, the web app), on a free port and a temporary data folder of
 * its own, whatever DATABASE_URL, KAFKA_BROKERS, REDIS_URL or S3_* the environment holds (the test
 * infrastructure's). Resolves once /healthz answers 200; `stop()` ends it and removes the folder.
 * @param {{ env?: Record<string, string | undefined>, nodeArgs?: string[], logFile?: string, timeoutMs?: number }} [options]
 */
export async function startProduct({ env = {}, nodeArgs = [], logFile, timeoutMs = 240_000 } = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'flatlay-load-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  /** @type {Started | undefined} */
  let product;
  try {
    product = await startProcess(
      'the product',
      [...nodeArgs, join(repoRoot, 'apps', 'embedded', 'dist', 'embedded.js')],
      {
        PORT: String(port),
        HOST: '127.0.0.1',
        FLATLAY_DATA_DIR: dataDir,
        DATABASE_URL: '',
        KAFKA_BROKERS: '',
        REDIS_URL: '',
        S3_BUCKET: '',
        S3_ENDPOINT: '',
        ...env,
      },
      /Flatlay is running at/,
      { logFile, timeoutMs },
    );
    // The line comes once every service started; /healthz says they all answer.
    for (const deadline = Date.now() + 60_000; ; ) {
      const status = await fetch(`${base}/healthz`).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200) break;
      if (Date.now() > deadline)
        throw new Error(`/healthz answered ${status} for 60 s:\n${product.output().slice(-3000)}`);
      await new Promise((ok) => setTimeout(ok, 250, undefined));
    }
  } catch (error) {
    if (product) await stopProcess(product.child);
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const started = product;
  return {
    ...started,
    base,
    dataDir,
    stop: async () => {
      await stopProcess(started.child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs a k6 script (a path, or a file name in tests/load/scenarios/) with `env` in its __ENV and
 * SUMMARY naming the file its handleSummary writes. Resolves to { code, summary, stderr }: k6's
 * exit code (0 passed, 99 a threshold failed), the parsed summary (undefined when none was written)
 * and the end of its error output.
 * @param {string} k6 @param {string} script @param {Record<string, string | undefined>} env
 * @param {{ summaryDir?: string }} [options]
 * @returns {Promise<{ code: number | string | null, summary?: ScenarioFigures, stderr: string }>}
 */
export function runK6(k6, script, env, { summaryDir = tmpdir() } = {}) {
  const path = script.includes('/') ? script : join(loadDir, 'scenarios', script);
  const summaryFile = join(
    summaryDir,
    `k6-summary-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.json`,
  );
  return new Promise((ok, fail) => {
    const child = spawn(k6, ['run', '--quiet', '--no-usage-report', path], {
      env: { ...process.env, ...env, SUMMARY: summaryFile, K6_NO_USAGE_REPORT: 'true' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    children.add(child);
    let stderr = '';
    child.stderr.on('data', (c) => {
      stderr = (stderr + c.toString()).slice(-20_000);
    });
    child.on('error', fail);
    child.on('exit', (code, signal) => {
      children.delete(child);
      /** @type {ScenarioFigures | undefined} */
      let summary;
      try {
        summary = JSON.parse(readFileSync(summaryFile, 'utf8'));
      } catch {}
      rmSync(summaryFile, { force: true });
      ok({ code: code ?? signal, summary, stderr });
    });
  });
}
