// The container image as the chart runs it (ADR 0304): every component (gateway, identity, ledger,
// image, billing, analytics, the image worker) from the one built image, each with its Deployment's
// command and environment from `helm template`, its secrets resolved from Secrets this suite makes
// (the service keys as the mounted files the chart makes of them), as uid 1000 on a read-only root
// with only /tmp writable, on the suite's real Postgres, Kafka, Redis and S3 server (versitygw). A user's journey
// through the containerised gateway: sign up, a generation by the real engine in the worker's
// container, its result, a pack paid on the local provider (chosen explicitly, as production
// requires), and the operator's stats. Every component's probes answer from inside its container.
import assert from 'node:assert/strict';
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { chownSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, it, onTestFailed } from 'vitest';
import { generateServiceKeys, privateKeyPem, publicKeyPem } from '@flatlay/platform';
import { steadyPorts } from '../../services/platform/test/ports.js';
import { freshTopicPrefix, testKafkaBus, waitFor } from '../../services/platform/test/support.js';
import { pay } from '../../gateway/test/support/local-checkout.js';
import { testS3Store } from '../../services/files/test/support/s3.js';
import { componentRuns, renderChart, type ComponentRun, type Secrets } from './support/deployment.js';
import {
  IMAGE_STATUS_WAIT_MS,
  podman,
  probe,
  productImage,
  READY_WAIT_MS,
  removeAll,
  startContainer,
  state,
  untilReady,
} from './support/podman.js';
import { apiClient } from '../support/api-client.js';

const COMPONENTS = ['identity', 'ledger', 'image', 'billing', 'analytics', 'image-worker', 'gateway'] as const;
// A small photo: the worker runs the real segmentation model on CPU.
const photo = await sharp(
  await readFile(new URL('../../services/image/test/fixtures/top_floor_01.jpg', import.meta.url)),
)
  .resize({ width: 320 })
  .jpeg()
  .toBuffer();

/** A setting of the suite's infrastructure (.infra/run/env.json, exported by scripts/test.mjs). */
function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value)
    throw new Error(`${name} is not set: run through \`npm test -- container\` (it provisions the infrastructure)`);
  return value;
}

/** The Secrets the chart's components reference, with values made for this run only. */
function suiteSecrets(admin: { email: string; password: string }): Secrets {
  const s3 = {
    S3_ACCESS_KEY_ID: requireEnv('S3_ACCESS_KEY_ID'),
    S3_SECRET_ACCESS_KEY: requireEnv('S3_SECRET_ACCESS_KEY'),
  };
  const secrets: Secrets = {
    'flatlay-redis': { REDIS_URL: requireEnv('REDIS_URL') },
    'flatlay-s3': s3,
    'flatlay-image-urls': { IMAGE_URL_SIGNING_KEY: randomBytes(48).toString('base64') },
    'flatlay-identity-jwt': {
      JWT_PRIVATE_KEY: generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString(),
    },
    'flatlay-identity-admin': { ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password },
    'flatlay-analytics-settings': { SETTINGS_ENCRYPTION_KEY: randomBytes(32).toString('base64') },
  };
  // Each service's database Secret names the suite's PostgreSQL server (the service makes its own database on it).
  for (const service of ['identity', 'ledger', 'image', 'billing', 'analytics'])
    secrets[`flatlay-${service}-db`] = { DATABASE_URL: requireEnv('DATABASE_URL') };
  const keys = generateServiceKeys();
  for (const [caller, pair] of Object.entries(keys))
    secrets[`flatlay-service-key-${caller}`] = {
      'private.pem': privateKeyPem(pair.privateKey),
      'public.pem': publicKeyPem(pair.publicKey),
    };
  return secrets;
}

describe('the container image, run as the chart runs it', () => {
  const runId = randomUUID().slice(0, 8);
  const nameOf = (component: string) => `flatlay-ct-${runId}-${component}`;
  const started: string[] = [];
  const admin = { email: `operator-${runId}@container.example.com`, password: randomBytes(12).toString('hex') };
  const topicPrefix = freshTopicPrefix();
  let filesDir: string | undefined;
  let runs: ComponentRun[] = [];
  let base = '';

  const api = apiClient(() => base);

  /** Every component's last log lines, printed when a test fails (the containers are removed after). */
  const printLogs = async () => {
    for (const name of started) process.stderr.write(`--- ${name}\n${(await state(name)).logs}\n`);
  };

  let image = '';
  // Three hooks, each with its own ceiling under 100 s: the image, the containers started, the
  // containers ready.
  beforeAll(async () => {
    image = await productImage();
  }, IMAGE_STATUS_WAIT_MS + 10_000);

  // Measured: 3 to 5 s from here to the last `podman run` returning, 10 to 16 s with the scrape
  // test starting its processes beside it (load 12 to 28).
  // biome-ignore lint/suspicious/noDuplicateTestHooks: one hook per step, each with its own ceiling
  beforeAll(async () => {
    // The bucket exists before the product starts, as an operator makes it in production.
    await testS3Store();
    const ports: Record<string, { serve: number; metrics: number }> = {};
    const chosen = await steadyPorts(2 * COMPONENTS.length);
    COMPONENTS.forEach((c, i) => {
      ports[c] = { serve: chosen[2 * i]!, metrics: chosen[2 * i + 1]! };
    });
    base = `http://127.0.0.1:${ports.gateway!.serve}`;
    const s3 = new URL(requireEnv('S3_ENDPOINT'));
    const objects = renderChart([
      // The suite's backing services in place of the cluster's.
      `kafka.bootstrapServers=${requireEnv('KAFKA_BROKERS')}`,
      `config.S3_ENDPOINT=${s3.origin}`,
      `config.S3_BUCKET=${requireEnv('S3_BUCKET')}`,
      'config.LOG_LEVEL=warn',
      // The suite's Kafka has no SCRAM users (the chart's default authenticates every client).
      'kafka.auth.enabled=false',
      // No Stripe account here: the local provider, chosen explicitly as production requires.
      'components.billing.env.PAYMENTS_PROVIDER=local',
      'components.billing.secretEnv.STRIPE_SECRET_KEY=null',
      'components.billing.secretEnv.STRIPE_PUBLISHABLE_KEY=null',
      'components.billing.secretEnv.STRIPE_WEBHOOK_SECRET=null',
      // The product's public address is the containerised gateway's.
      `components.billing.env.PUBLIC_BASE_URL=${base}`,
      `components.identity.env.PUBLIC_BASE_URL=${base}`,
      `components.gateway.env.CORS_ORIGINS=${base}`,
      // Every run signs up from 127.0.0.1 on a Redis that outlives the run (FLATLAY_KEEP_INFRA):
      // the production limit per address and hour would refuse the fourth run of an hour.
      'components.gateway.env.SIGNUPS_PER_CLIENT_PER_HOUR=1000',
    ]);
    filesDir = mkdtempSync(join(tmpdir(), 'flatlay-container-'));
    runs = componentRuns(objects, suiteSecrets(admin), ports, filesDir);
    assert.deepEqual(runs.map((r) => r.name).sort(), [...COMPONENTS].sort(), 'one Deployment per component');
    // The kubelet writes secret volumes for the pod's fsGroup (1000): the process can read its key.
    const own = (p: string) => {
      chownSync(p, 1000, 1000);
      if (statSync(p).isDirectory()) for (const n of readdirSync(p)) own(join(p, n));
    };
    own(filesDir);
    for (const run of runs) {
      assert.equal(run.env.NODE_ENV, 'production', `${run.name} runs under NODE_ENV=production`);
      // A namespace of its own on the shared broker (ADR 0010): the only setting the chart does not give.
      run.env.KAFKA_TOPIC_PREFIX = topicPrefix;
    }
    // All at once, as a release rolls out: each is ready when its own probe says so (the gateway's
    // readiness includes every service's).
    await Promise.all(
      runs.map(async (run) => {
        started.push(nameOf(run.name));
        await startContainer(image, nameOf(run.name), run);
      }),
    );
  }, 60_000);

  // Each waits READY_WAIT_MS at most, all at once.
  // biome-ignore lint/suspicious/noDuplicateTestHooks: one hook per step, each with its own ceiling
  beforeAll(async () => {
    await Promise.all(runs.map((run) => untilReady(nameOf(run.name), run)));
  }, READY_WAIT_MS + 10_000);

  // `podman rm --time 10` stops every container at once (SIGTERM, SIGKILL after 10 s).
  afterAll(async () => {
    await removeAll(started, filesDir);
    // The run's topics and consumer groups on the shared broker go with it.
    await testKafkaBus('container-cleanup', { prefix: topicPrefix }).close();
  }, 60_000);

  // The tests' ceilings: measured 2 to 3.4 s, 10.6 to 18.2 s and 8.2 to 9.9 s (load 12 to 28).
  it('starts every component as uid 1000 on a read-only root, with its model files in the image', async () => {
    // One exec per container: its uid, whether the root and /tmp take a new file.
    const script =
      'id -u; touch /app/x 2>/dev/null && echo root-writable || echo root-read-only; touch /tmp/x && echo tmp-writable';
    const seen = await Promise.all(
      runs.map(async (run) => [run.name, await podman(['exec', nameOf(run.name), 'sh', '-c', script])] as const),
    );
    for (const [name, r] of seen)
      assert.deepEqual(r.output.trim().split('\n'), ['1000', 'root-read-only', 'tmp-writable'], `${name}: ${r.output}`);
    // The engine's model files were made at build time (nothing can write them at run time).
    const models = await podman(['exec', nameOf('image-worker'), 'sh', '-c', 'ls /app/models/*-fp32-w*.onnx']);
    assert.equal(models.code, 0, `the worker's float32 model in the image:\n${models.output}`);
  }, 30_000);

  it("answers each component's liveness and readiness probes from inside its container", async () => {
    // One probe at a time, as a kubelet asks them (each a Node process in the container): with all
    // fourteen at once on the two cores, the gateway's liveness (/healthz, which asks every service
    // with a 1 s deadline) answered 503 in one run here.
    for (const run of runs)
      for (const kind of ['readiness', 'liveness'] as const) {
        const p = run[kind];
        const r = await probe(nameOf(run.name), p);
        assert.equal(r.code, 0, `${run.name}'s ${kind} probe (${p.kind} :${p.port}${p.path ?? ''}):\n${r.output}`);
      }
    for (const run of runs) assert.equal((await state(nameOf(run.name))).running, true, `${run.name} still runs`);
  }, 60_000);

  it('takes a user from sign-up through a real generation and a paid pack to the operator stats', async () => {
    onTestFailed(printLogs);
    const email = `container-${runId}@example.com`;
    const registered = await api<{ access_token: string }>('POST', '/auth/register', {
      json: { email, password: 'a good long password' },
    });
    assert.equal(registered.status, 201, JSON.stringify(registered.body));
    const token = registered.body.access_token;

    const form = new FormData();
    form.append('file', new Blob([photo]), 'photo.jpg');
    form.append('enhancement_type', 'tops');
    const generated = await api<{ id: string }>('POST', '/images/generate', { token, form });
    assert.equal(generated.status < 300, true, JSON.stringify(generated.body));
    const id = generated.body.id;
    // Measured 6.1 to 7.7 s to completed (the first generation: the worker loads its model); the
    // credit and the user list below, under 2 s together.
    let status = { status: '', processed_url: null as string | null };
    await waitFor(
      async () => {
        status = (await api<typeof status>('GET', `/images/status/${id}`, { token })).body;
        if (status.status === 'failed') throw new Error(`the generation failed: ${JSON.stringify(status)}`);
        if (status.status !== 'completed') await new Promise((r) => setTimeout(r, 500));
        return status.status === 'completed';
      },
      'the worker container to finish the generation',
      45_000,
    );
    assert.ok(status.processed_url, 'the result is served');
    const result = await fetch(`${base}${status.processed_url}`);
    assert.equal(result.status, 200);
    const meta = await sharp(Buffer.from(await result.arrayBuffer())).metadata();
    assert.ok((meta.width ?? 0) > 0 && (meta.height ?? 0) > 0, 'the result is an image');

    const balance = async () => (await api<{ tokenBalance: number }>('GET', '/auth/me', { token })).body.tokenBalance;
    const before = await balance();
    const products = await api<{ token_packs: Array<{ id: string; price_id: string; tokens: number }> }>(
      'GET',
      '/payments/products',
    );
    const pack = products.body.token_packs.find((p) => p.id === 'main_pack')!;
    const checkout = await api<{ url: string }>('POST', '/payments/create-checkout-session', {
      token,
      json: { price_id: pack.price_id, product_type: 'payment' },
    });
    assert.equal(checkout.status, 200, JSON.stringify(checkout.body));
    const back = await pay(base, checkout.body.url);
    assert.equal(`${back.pathname}${back.search}`, '/dashboard?payment=success');
    await waitFor(async () => (await balance()) === before + pack.tokens, 'the pack credited', 20_000);

    const login = await api<{ access_token: string }>('POST', '/admin/login', {
      form: new URLSearchParams({ username: admin.email, password: admin.password }),
    });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    const adminToken = login.body.access_token;
    const stats = await api<{ total_users: number }>('GET', '/admin/stats/signups', { token: adminToken });
    assert.equal(stats.status, 200, JSON.stringify(stats.body));
    assert.ok(stats.body.total_users >= 1);
    // The sign-up reached analytics' read model over Kafka (from the identity container to the analytics one).
    await waitFor(
      async () => {
        const page = await api<{ users: Array<{ email: string }> }>(
          'GET',
          `/admin/users?q=${encodeURIComponent(email)}`,
          {
            token: adminToken,
          },
        );
        return page.status === 200 && page.body.users.some((u) => u.email === email);
      },
      'the new user in the admin user list',
      20_000,
    );
  }, 90_000);
});
