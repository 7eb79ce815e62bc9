// The API fuzz run: the embedded product (apps/embedded/dist/embedded.js, as `npm start` runs it) on its
// own data folder, Schemathesis against its served document as a signed-in user and as the
// administrator, every check on. Used by tests/api-fuzz.e2e.spec.ts (few examples) and
// `npm run fuzz` (tests/fuzz/main.ts, 200 per operation).
//
// Both sign-in providers are configured with test keys, as gateway/test does: Google with a
// certificate endpoint served here and ID tokens signed by its key, Supabase with a secret that
// signs its access tokens. So every operation can answer 2xx, and the run checks that each did.
import { spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SignJWT } from 'jose';
import { createPool, ensureDatabase, freePort } from '@flatlay/platform';
import { pay } from '../../gateway/test/support/local-checkout.js';
import { startNode } from '../../services/platform/test/process.js';
import { embeddedEnv, untilHealthy } from '../support/embedded-product.js';

export const repoRoot = resolve(import.meta.dirname, '..', '..');
/** The pinned Schemathesis of scripts/infra/schemathesis.mjs (`node scripts/infra.mjs install`). */
export const schemathesisBin = join(repoRoot, '.infra', 'schemathesis', 'bin', 'st');
export const ROLES = ['user', 'admin'] as const;
export type Role = (typeof ROLES)[number];

const GOOGLE_CLIENT_ID = 'flatlay-fuzz.apps.googleusercontent.com';

export interface RoleResult {
  exitCode: number | string;
  /** Operations Schemathesis tested, cases it sent, and failures it reported (JUnit). */
  operations: number;
  cases: number;
  failures: number;
  /** The JUnit text of each failed operation, for the failure message. */
  failed: string[];
  /** Per "METHOD /path": how many answers of each status this role got. */
  statuses: Record<string, Record<string, number>>;
  output: string;
}

export interface FuzzResult {
  roles: Record<Role, RoleResult>;
  /** Operations of the served document, "METHOD /path". */
  documented: string[];
  /** Operations without a 2xx for a role that may call them. */
  without2xx: string[];
  /** Admin-only operations the user got no 403 from, or something past the role check. */
  userNot403: string[];
  /** GET /api/auth/me with each role's main token after the run. */
  tokensAfter: Record<Role, number>;
  seconds: number;
}

/**
 * Schemathesis' JUnit report: one `<testcase>` per operation (plus one for the stateful tests),
 * with a `<failure>` or `<error>` inside when it failed.
 */
function junitFigures(xml: string) {
  const cases = [...xml.matchAll(/<testcase\b[\s\S]*?(?:\/>|<\/testcase>)/g)].map((m) => m[0]);
  const failed = cases.filter((c) => /<(failure|error)\b/.test(c));
  const operations = cases.filter((c) => !c.includes('name="Stateful tests"')).length;
  return { operations, failed };
}

/** The real photo the hooks upload in positive multipart cases (random bytes are never an image). */
const FUZZ_PHOTO = join(repoRoot, 'services', 'image', 'test', 'fixtures', 'top_floor_01.jpg');

/**
 * Images each role owns before the run, for the operations on /images/.../{id}: one of its own
 * (charged, so unlocked: unlock-with-tokens answers 200 as a free repeat) and a guest's try it has
 * already claimed (unlock-anonymous-with-tokens answers 200 as a free repeat; its anonymous status
 * is readable by anyone). Positive cases of those operations name these ids (tests/fuzz/hooks.py).
 */
/**
 * An active subscription bought on the local checkout page, so POST /subscription/cancel has
 * something to cancel and can answer 2xx (a repeat cancel answers 200 too).
 */
async function subscribe(base: string, token: string): Promise<void> {
  const res = await fetch(`${base}/api/checkout/session`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'subscription', plan: 'studio_monthly' }),
  });
  const body = (await res.json()) as { url?: string };
  if (!res.ok || !body.url)
    throw new Error(`checkout for the fuzz run's subscription: ${res.status} ${JSON.stringify(body)}`);
  await pay(base, body.url);
}

/**
 * Makes fixture images finished: unlocks and payments are taken only for a finished result (ADR
 * 0104). Without a worker (the test Postgres), their rows are marked completed directly, as a
 * worker would; with one (the embedded Postgres), the set-up waits for the real engine.
 */
function finishImages(base: string, databasePrefix: string) {
  return async (ids: string[], token: string) => {
    if (databasePrefix) {
      const pool = createPool(await ensureDatabase(process.env.DATABASE_URL!, `${databasePrefix}image`), 1);
      try {
        await pool.query(
          `UPDATE images SET status = 'completed', result_key = 'images/' || image_id || '/result.jpg',
             result_type = 'image/jpeg', preview_key = 'images/' || image_id || '/preview.jpg', width = 1, height = 1
           WHERE image_id = ANY($1::uuid[])`,
          [ids],
        );
        await pool.query(`UPDATE generation_jobs SET status = 'succeeded' WHERE image_id = ANY($1::uuid[])`, [ids]);
      } finally {
        await pool.end();
      }
      return;
    }
    for (const id of ids)
      for (let i = 0; i < 600; i++) {
        const res = await fetch(`${base}/api/images/anonymous/status/${id}`);
        const own = await fetch(`${base}/api/images/status/${id}`, { headers: { authorization: `Bearer ${token}` } });
        const status = ((res.ok ? await res.json() : own.ok ? await own.json() : {}) as { status?: string }).status;
        if (status && status !== 'processing') break;
        await new Promise((r) => setTimeout(r, 500));
      }
  };
}

async function fuzzImages(base: string, token: string, finished: (ids: string[], token: string) => Promise<void>) {
  const upload = async (path: string, fields: Record<string, string>, bearer?: string) => {
    const body = new FormData();
    body.append('file', new Blob([readFileSync(FUZZ_PHOTO)]), 'photo.jpg');
    for (const [k, v] of Object.entries(fields)) body.append(k, v);
    const res = await fetch(`${base}/api${path}`, {
      method: 'POST',
      headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
      body,
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { image_id?: string; enhancement_id: string };
  };
  const own = await upload('/images/generate', { enhancement_type: 'clothing' }, token);
  const guest = await upload('/images/anonymous/generate', { email: 'fuzz.guest@example.com' });
  await finished([guest.enhancement_id], token);
  const claim = await fetch(`${base}/api/images/unlock-anonymous-with-tokens/${guest.enhancement_id}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  if (!claim.ok) throw new Error(`claim: ${claim.status} ${await claim.text()}`);
  // The 200 tokens are spent now (the own image and the claim): the next image is made locked,
  // for the unlock-by-payment operations; and a guest's try nobody claims, for the guest's checkout.
  const locked = await upload('/images/generate', { enhancement_type: 'clothing' }, token);
  const open = await upload('/images/anonymous/generate', { email: 'fuzz.guest@example.com' });
  await finished([locked.enhancement_id, open.enhancement_id], token);
  // A checkout makes the role a billing customer, so the billing portal has an account to open.
  const checkout = await fetch(`${base}/api/payments/create-checkout-session`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ price_id: 'price_main_pack', product_type: 'payment' }),
  });
  if (!checkout.ok) throw new Error(`checkout: ${checkout.status} ${await checkout.text()}`);
  return {
    own: own.enhancement_id,
    guest: guest.enhancement_id,
    locked: locked.enhancement_id,
    guestOpen: open.enhancement_id,
  };
}

/** Cases sent, as the run's summary counts them ("Test cases: N generated, ..."). */
const casesOf = (output: string): number => Number(/(\d+) generated/.exec(output)?.[1] ?? 0);

export interface FuzzOptions {
  examples: number;
  reportDir: string;
  log?: (line: string) => void;
  /**
   * Schemathesis phases per role (`--phases`), all by default. The coverage phase (boundary and
   * invalid values of every keyword) is the same validation code whichever role sends it, and
   * it is most of a run's time: a short run may give it to the admin alone, who reaches every
   * operation.
   */
  phases?: Partial<Record<Role, string>>;
}

export async function runFuzz(options: FuzzOptions) {
  const log = options.log ?? (() => undefined);
  const started = Date.now();
  if (!existsSync(schemathesisBin))
    throw new Error(`Schemathesis is not installed at ${schemathesisBin}: run \`node scripts/infra.mjs install\``);
  if (!existsSync(join(repoRoot, 'apps', 'embedded', 'dist', 'embedded.js')))
    throw new Error('apps/embedded/dist/embedded.js is missing: run `npm run build`');
  await rm(options.reportDir, { recursive: true, force: true });
  await mkdir(options.reportDir, { recursive: true });
  const stops: Array<() => Promise<unknown>> = [];
  try {
    // Google's side: a signing key and its certificate endpoint.
    const google = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const kid = randomUUID();
    const certs: Server = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ [kid]: google.publicKey.export({ type: 'spki', format: 'pem' }) }));
    });
    await new Promise<void>((ok) => certs.listen(0, '127.0.0.1', ok));
    stops.push(() => new Promise((ok) => certs.close(ok)));
    const supabaseSecret = randomBytes(32).toString('base64url');
    // The local payment provider's webhook secret: the hooks sign positive webhook cases with it.
    const webhookSecret = `whsec_fuzz_${randomBytes(24).toString('base64url')}`;

    const dataDir = await mkdtemp(join(tmpdir(), 'flatlay-fuzz-'));
    stops.push(() => rm(dataDir, { recursive: true, force: true }));
    const port = await freePort();
    // On the test Postgres when there is one (databases of this run's own), so the set-up below can
    // mark its fixture images finished; else on the product's embedded Postgres, with a worker.
    const testPostgres = process.env.DATABASE_URL || '';
    const databasePrefix = `fuzz_${randomUUID().replaceAll('-', '').slice(0, 10)}_`;
    const admin = { email: 'fuzz.admin@example.com', password: 'fuzz admin password' };
    const many = '1000000';
    const product = startNode(
      [join(repoRoot, 'apps', 'embedded', 'dist', 'embedded.js')],
      embeddedEnv(port, dataDir, {
        LOG_LEVEL: 'error',
        // Answers are checked against the document in the gateway too (a mismatch is a 500 naming it).
        NODE_ENV: 'test',
        ADMIN_EMAIL: admin.email,
        ADMIN_PASSWORD: admin.password,
        // For this run only: the fuzzer signs in thousands of times from one address and e-mail.
        AUTH_RATE_LIMIT_PER_IP: many,
        AUTH_RATE_LIMIT_PER_EMAIL: many,
        AUTH_RATE_LIMIT_PER_EMAIL_ANY_IP: many,
        SIGNUPS_PER_CLIENT_PER_HOUR: many,
        // ...and makes hundreds of guests' tries from it, which stay processing (no worker).
        ANON_GENERATIONS_PER_IP_PER_HOUR: many,
        ANON_GENERATIONS_PER_EMAIL_PER_HOUR: many,
        ANON_UNFINISHED_TRIES_PER_GUEST: many,
        GOOGLE_CLIENT_ID,
        GOOGLE_CERTS_URL: `http://127.0.0.1:${(certs.address() as { port: number }).port}/oauth2/v1/certs`,
        SUPABASE_JWT_SECRET: supabaseSecret,
        LOCAL_WEBHOOK_SECRET: webhookSecret,
        // No generation worker: this run checks the API contract, not job processing (the gateway's
        // and image service's integration tests do). With a worker every accepted generate ran the
        // real engine on the same cores while Schemathesis ran (368 s instead of ~85 s); without one
        // jobs stay queued or processing, which every status answer documents.
        IMAGE_IN_PROCESS_WORKER: testPostgres ? '0' : '1',
        ...(testPostgres ? { DATABASE_URL: testPostgres, DATABASE_NAME_PREFIX: databasePrefix } : {}),
      }),
    );
    stops.push(async () => {
      if (product.child.exitCode === null) {
        product.child.kill('SIGINT');
        await product.exited;
      }
    });
    const base = `http://127.0.0.1:${port}`;
    await untilHealthy(base, product.child);
    if (product.child.exitCode !== null) throw new Error(`the product exited:\n${product.output()}`);

    const post = async (path: string, body: string, type: string) => {
      const res = await fetch(`${base}/api${path}`, { method: 'POST', headers: { 'content-type': type }, body });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as { access_token: string };
    };
    const user = { email: 'fuzz.user@example.com', password: 'fuzz user password' };
    const userToken = (await post('/auth/register', JSON.stringify(user), 'application/json')).access_token;
    const adminToken = (
      await post(
        '/admin/login',
        new URLSearchParams({ username: admin.email, password: admin.password }).toString(),
        'application/x-www-form-urlencoded',
      )
    ).access_token;
    // The administrator's token account is opened by an ordinary sign-in (admin sign-in leaves
    // it alone): 200 tokens, as the user has, for the images below.
    await post('/auth/login', JSON.stringify({ email: admin.email, password: admin.password }), 'application/json');
    const finished = finishImages(base, testPostgres && databasePrefix);
    const images = {
      user: await fuzzImages(base, userToken, finished),
      admin: await fuzzImages(base, adminToken, finished),
    };
    for (const token of [userToken, adminToken]) await subscribe(base, token);

    // Valid provider tokens for the hooks (each a new identity, so a new account or a repeat sign-in).
    const now = Math.floor(Date.now() / 1000);
    const googleIdTokens = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        new SignJWT({
          iss: 'https://accounts.google.com',
          aud: GOOGLE_CLIENT_ID,
          sub: `fuzz-google-${i}`,
          email: `fuzz.google.${i}@gmail.com`,
          email_verified: true,
          iat: now,
          exp: now + 3 * 3600,
        })
          .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
          .sign(google.privateKey),
      ),
    );
    const supabaseTokens = await Promise.all(
      Array.from({ length: 20 }, () =>
        new SignJWT({
          aud: 'authenticated',
          role: 'authenticated',
          sub: randomUUID(),
          email: `fuzz.supabase.${randomUUID().slice(0, 8)}@example.com`,
          iat: now,
          exp: now + 3 * 3600,
        })
          .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
          .sign(new TextEncoder().encode(supabaseSecret)),
      ),
    );
    const secretsFile = join(dataDir, 'fuzz-secrets.json');
    await writeFile(
      secretsFile,
      JSON.stringify({
        base,
        user: { ...user, token: userToken },
        admin: { ...admin, token: adminToken },
        googleIdTokens,
        supabaseTokens,
        webhookSecret,
        images,
        photo: FUZZ_PHOTO,
      }),
    );
    // The served document, from a file: Schemathesis leaves out the operation it loaded the
    // document from, and GET /openapi.json is one of the operations under test.
    const served = (await (await fetch(`${base}/api/openapi.json`)).json()) as { paths: Record<string, object> };
    const documentFile = join(options.reportDir, 'openapi.json');
    await writeFile(documentFile, JSON.stringify(served, null, 2));
    const documented = Object.entries(served.paths).flatMap(([path, item]) =>
      Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`),
    );

    const roles = {} as Record<Role, RoleResult>;
    for (const role of ROLES) {
      const dir = join(options.reportDir, role);
      const statusLog = join(dir, 'statuses.ndjson');
      await mkdir(dir, { recursive: true });
      await writeFile(statusLog, '');
      log(
        `schemathesis as ${role}: ${options.examples} examples per operation, phases ${options.phases?.[role] ?? 'all'}`,
      );
      const args = [
        '--config-file',
        join(repoRoot, 'tests', 'fuzz', 'schemathesis.toml'),
        'run',
        documentFile,
        '--url',
        `${base}/api`,
        '--checks',
        'all',
        '--max-examples',
        String(options.examples),
        ...(options.phases?.[role] ? ['--phases', options.phases[role]] : []),
        '--report',
        'junit,ndjson',
        '--report-junit-path',
        join(dir, 'junit.xml'),
        '--report-ndjson-path',
        join(dir, 'events.ndjson'),
        '--no-color',
      ];
      const child = spawn(schemathesisBin, args, {
        cwd: repoRoot,
        env: {
          ...process.env,
          SCHEMATHESIS_HOOKS: join(repoRoot, 'tests', 'fuzz', 'hooks.py'),
          FUZZ_ROLE: role,
          FUZZ_SECRETS: secretsFile,
          FUZZ_STATUS_LOG: statusLog,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
      const exitCode = await new Promise<number | string>((ok) => child.on('exit', (c, s) => ok(c ?? s ?? -1)));
      await writeFile(join(dir, 'output.txt'), output);
      const junit = junitFigures(readFileSync(join(dir, 'junit.xml'), 'utf8'));
      const statuses: RoleResult['statuses'] = {};
      for (const line of readFileSync(statusLog, 'utf8').split('\n').filter(Boolean)) {
        const { operation, status } = JSON.parse(line) as { operation: string; status: number };
        statuses[operation] ??= {};
        statuses[operation][status] = (statuses[operation][status] ?? 0) + 1;
      }
      roles[role] = {
        exitCode,
        operations: junit.operations,
        cases: casesOf(output),
        failures: junit.failed.length,
        failed: junit.failed,
        statuses,
        output,
      };
      log(`schemathesis as ${role}: exit ${exitCode}, ${junit.failed.length} failed operations`);
    }

    // A browser navigation answers a documented redirect (3xx) where others answer 2xx.
    const redirects = new Set(
      Object.entries(served.paths).flatMap(([path, item]) =>
        Object.entries(item as Record<string, { responses?: Record<string, unknown> }>)
          .filter(([, op]) => Object.keys(op.responses ?? {}).some((s) => s.startsWith('3')))
          .map(([m]) => `${m.toUpperCase()} ${path}`),
      ),
    );
    const succeeded = (op: string, status: string) =>
      status.startsWith('2') || (redirects.has(op) && status.startsWith('3'));
    // Each operation must have answered 2xx at least once to every role that may call it. An
    // admin-only operation (declared access admin, `x-flatlay-access` in the document) is the
    // admin's alone: the user must get 403 there and never a 2xx; the only other answers allowed
    // are the refusals that come before the role check (no token, a body of the wrong size, type
    // or syntax).
    const adminOnly = new Set(
      Object.entries(served.paths).flatMap(([path, item]) =>
        Object.entries(item as Record<string, { 'x-flatlay-access'?: string }>)
          .filter(([, op]) => op['x-flatlay-access'] === 'admin')
          .map(([m]) => `${m.toUpperCase()} ${path}`),
      ),
    );
    const mayCall = (role: Role, op: string) => role === 'admin' || !adminOnly.has(op);
    const without2xx = ROLES.flatMap((role) =>
      documented
        .filter((op) => mayCall(role, op))
        .filter((op) => !Object.keys(roles[role].statuses[op] ?? {}).some((s) => succeeded(op, s)))
        .map((op) => `${op} as ${role}`),
    );
    const userNot403 = [...adminOnly].flatMap((op) => {
      const answered = Object.keys(roles.user.statuses[op] ?? {});
      const wrong = answered.filter((s) => !['400', '401', '403', '413', '415'].includes(s));
      return !answered.includes('403') || wrong.length ? [`${op} as user answered ${answered.join(', ')}`] : [];
    });
    const tokensAfter = {} as Record<Role, number>;
    for (const [role, token] of [
      ['user', userToken],
      ['admin', adminToken],
    ] as const) {
      tokensAfter[role] = (
        await fetch(`${base}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })
      ).status;
    }
    const result: FuzzResult = {
      roles,
      documented,
      without2xx,
      userNot403,
      tokensAfter,
      seconds: (Date.now() - started) / 1000,
    };
    await writeFile(
      join(options.reportDir, 'summary.json'),
      JSON.stringify(
        { ...result, roles: Object.fromEntries(ROLES.map((r) => [r, { ...roles[r], output: undefined }])) },
        null,
        2,
      ),
    );
    return result;
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  }
}

/** Why a run is not clean, one line each; empty when it is. */
export function problemsOf(result: FuzzResult): string[] {
  const problems: string[] = [];
  for (const role of ROLES) {
    const r = result.roles[role];
    if (r.exitCode !== 0 || r.failures > 0)
      problems.push(`as ${role}: exit ${r.exitCode}, ${r.failures} failed operations\n${r.output.slice(-20_000)}`);
    if (r.operations !== result.documented.length)
      problems.push(`as ${role}: ${r.operations} operations tested of ${result.documented.length} documented`);
  }
  for (const op of result.without2xx) problems.push(`no 2xx: ${op}`);
  for (const op of result.userNot403) problems.push(op);
  for (const role of ROLES)
    if (result.tokensAfter[role] !== 200)
      problems.push(`the ${role}'s main token answers ${result.tokensAfter[role]} after the run`);
  return problems;
}
