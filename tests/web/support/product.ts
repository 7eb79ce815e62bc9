// The product as `npm start` runs it (apps/embedded/dist/embedded.js: every service, the gateway and
// the built web app in one process, on the in-process bus), on a fresh database of the test
// Postgres instead of an embedded one (same code path: embedded.ts switches on DATABASE_URL),
// and a headless Chromium (Debian's, installed by the test infrastructure) to drive it.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDatabase, freePort } from '@flatlay/platform';
import { requireEnv } from '../../../services/platform/test/support.js';
import { repoRoot, screenshotsIn } from '../../support/browser.js';
import { untilHealthy } from '../../support/embedded-product.js';

/** The journeys' screenshots, under reports/web-e2e/. */
export const screenshot = screenshotsIn('web-e2e');

export const ADMIN = { email: 'owner@example.com', password: 'e2e admin password' };

export interface RunningProduct {
  url: string;
  /** The product's data folder (its files: originals and results). */
  dataDir: string;
  output: () => string;
  /** An /api call as the operator (for what the shopper's journey cannot do itself). */
  asAdmin: (path: string, body: unknown) => Promise<Response>;
  /**
   * Adds or deducts tokens as the operator. The operator finds users in the analytics read
   * model, which learns of a sign-up from its event a moment later: a 404 (nothing applied)
   * is asked again until the user is known.
   */
  adjustTokens: (email: string, tokens: number, action: 'add' | 'deduct') => Promise<number>;
  stop: () => Promise<void>;
}

/** Infrastructure variables the product must not see: it runs on its own defaults, like `npm start`. */
const NOT_FOR_THE_PRODUCT = [
  'KAFKA_BROKERS',
  'REDIS_URL',
  'S3_ENDPOINT',
  'S3_BUCKET',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'DATABASE_URL',
  // No Stripe: the product's own local payment provider serves checkout and the billing portal.
  'STRIPE_SECRET_KEY',
  'STRIPE_PUBLISHABLE_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'STRIPE_API_URL',
];

/** `settings`: more of the product's environment, as an operator would set it (e.g. GENERATIVE_API_URL). */
export async function startProduct(settings: Record<string, string> = {}): Promise<RunningProduct> {
  for (const built of ['apps/embedded/dist/embedded.js', 'web/dist/index.html'])
    if (!existsSync(join(repoRoot, built)))
      throw new Error(`${built} is missing: npm test builds it (or run \`npm run build\`)`);
  // Databases of its own on the test server (web_e2e_<run>_<service>): no other product's rows meet these.
  const databasePrefix = `web_e2e_${randomUUID().replaceAll('-', '').slice(0, 12)}_`;
  const databaseUrl = await ensureDatabase(requireEnv('DATABASE_URL'), `${databasePrefix}server`);
  const dataDir = await mkdtemp(join(tmpdir(), 'flatlay-web-e2e-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !NOT_FOR_THE_PRODUCT.includes(k)) env[k] = v;
  Object.assign(env, {
    PORT: String(port),
    HOST: '127.0.0.1',
    // Metrics on a free port: several products run side by side here.
    METRICS_PORT: '0',
    DATABASE_URL: databaseUrl,
    DATABASE_NAME_PREFIX: databasePrefix,
    FLATLAY_DATA_DIR: dataDir,
    // The address the browser uses: the local checkout pages and every return address are on it
    // (the embedded default's http://localhost:$PORT would be another origin, without the session).
    PUBLIC_BASE_URL: url,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'warn',
    // The journeys sign up many people from one address (the bound itself: gateway/test/sign-up-bound.int.spec.ts).
    SIGNUPS_PER_CLIENT_PER_HOUR: '100000',
    // The browser tests sign up and in a few times from one address.
    NODE_ENV: 'test',
    // ...and make guests' tries from it (the limits have their own tests).
    ANON_GENERATIONS_PER_IP_PER_HOUR: '10000',
    ANON_GENERATIONS_PER_EMAIL_PER_HOUR: '10000',
    ANON_UNFINISHED_TRIES_PER_GUEST: '10000',
    // The engine's stand-in: these journeys test the product around the engine, not its CPU time
    // (the real engine on a busy machine made one generation take minutes).
    IMAGE_ENGINE: 'instant',
    ...settings,
  });
  const child = spawn(process.execPath, ['apps/embedded/dist/embedded.js'], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<void>((ok) => child.on('exit', () => ok()));
  await untilHealthy(url, child);
  if (child.exitCode !== null) throw new Error(`the product exited early:\n${output}`);

  let adminToken: string | undefined;
  const asAdmin = async (path: string, body: unknown) => {
    if (!adminToken) {
      const login = await fetch(`${url}/api/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username: ADMIN.email, password: ADMIN.password }).toString(),
      });
      if (login.status !== 200) throw new Error(`admin login: ${login.status} ${await login.text()}`);
      adminToken = ((await login.json()) as { access_token: string }).access_token;
    }
    return fetch(`${url}/api${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
      body: JSON.stringify(body),
    });
  };

  const adjustTokens = async (email: string, tokens: number, action: 'add' | 'deduct') => {
    let answer = { status: 0, text: '' };
    // Under load the read model can lag by tens of seconds; ask twice a second, for up to 4 minutes.
    const until = Date.now() + 240_000;
    for (;;) {
      const res = await asAdmin('/admin/tokens/adjust', { user_email: email, tokens, action });
      answer = { status: res.status, text: await res.text() };
      if (res.status !== 404) break;
      if (Date.now() > until) throw new Error(`${email} never became known to the operator's search`);
      await new Promise((r) => setTimeout(r, 500));
    }
    if (answer.status !== 200) throw new Error(`token adjustment: ${answer.status} ${answer.text}`);
    return (JSON.parse(answer.text) as { token_balance: number }).token_balance;
  };

  return {
    url,
    dataDir,
    output: () => output,
    asAdmin,
    adjustTokens,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
