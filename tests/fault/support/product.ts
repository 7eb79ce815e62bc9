// The product in its distributed shape, as the chart runs it: identity, ledger, image, billing and
// analytics each their own process (services/<name>/dist/main.js), the generation worker its own
// process, and the gateway (gateway/dist/main.js) in front, on the fault tier's own Postgres and
// Kafka. Named links go through Toxiproxy: the gateway to identity and to the ledger, billing to
// Postgres, the worker to Kafka (a broker listener that advertises the proxy's address).
// Every process keeps its port across restarts, so a killed one comes back where the others look.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkHealth } from '@flatlay/platform';
import { serviceKeyEnv, startNode, testUrlSigningKey, type ChildRun } from '../../../services/platform/test/process.js';
import { steadyPort } from '../../../services/platform/test/ports.js';
import { waitFor } from '../../../services/platform/test/support.js';
import type { FaultInfra } from './infra.js';
import { Toxiproxy } from './toxiproxy.js';

export const SERVICES = ['identity', 'ledger', 'image', 'billing', 'analytics'] as const;
export type ServiceName = (typeof SERVICES)[number];
export type ProcessName = ServiceName | 'image-worker' | 'gateway';

/** The named network links of the suite (Toxiproxy proxies). */
export const LINKS = {
  gatewayToIdentity: 'gateway-identity',
  gatewayToLedger: 'gateway-ledger',
  billingToPostgres: 'billing-postgres',
  workerToKafka: 'worker-kafka',
} as const;

export const WEBHOOK_SECRET = `whsec_fault_${randomBytes(12).toString('hex')}`;

export interface Product {
  base: string;
  admin: { email: string; password: string };
  toxiproxy: Toxiproxy;
  infra: FaultInfra;
  /** Each service's database URL on the fault tier's Postgres (directly, not through a proxy). */
  databaseOf(service: ServiceName): string;
  /** SIGKILL, then start again on the same port; resolves when it serves again. */
  killAndRestart(name: ProcessName): Promise<void>;
  /** Waits until every process answers its health check. */
  healthy(timeoutMs?: number): Promise<void>;
  /** The last lines of every process's output (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

const repoRoot = new URL('../../../', import.meta.url).pathname;
const workerScript = join(repoRoot, 'services/image/test/support/worker-process.ts');

export async function startProduct(infra: FaultInfra): Promise<Product> {
  const toxiproxy = new Toxiproxy(infra.FAULT_TOXIPROXY_URL);
  await toxiproxy.reset();
  const dataDir = await mkdtemp(join(tmpdir(), 'flatlay-fault-'));
  const pgUrl = new URL(infra.FAULT_DATABASE_URL);
  const port: Record<ProcessName, number> = {} as never;
  for (const name of [...SERVICES, 'image-worker', 'gateway'] as ProcessName[]) port[name] = await steadyPort();
  const base = `http://127.0.0.1:${port.gateway}`;
  const addr = (p: number) => `127.0.0.1:${p}`;

  const identityLink = await toxiproxy.link(LINKS.gatewayToIdentity, await steadyPort(), addr(port.identity));
  const ledgerLink = await toxiproxy.link(LINKS.gatewayToLedger, await steadyPort(), addr(port.ledger));
  const billingPgLink = await toxiproxy.link(LINKS.billingToPostgres, await steadyPort(), addr(Number(pgUrl.port)));
  const workerKafka = await toxiproxy.link(
    LINKS.workerToKafka,
    Number(infra.FAULT_KAFKA_ADVERTISED_PORT),
    addr(Number(infra.FAULT_KAFKA_PROXIED_PORT)),
  );
  const billingUrl = new URL(infra.FAULT_DATABASE_URL);
  billingUrl.host = billingPgLink;

  const jwtPrivateKey = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();
  const admin = { email: 'operator@fault.example.com', password: 'fault suite operator pw' };
  const common = {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.FAULT_LOG_LEVEL ?? 'warn',
    KAFKA_BROKERS: infra.FAULT_KAFKA_BROKERS,
    FLATLAY_DATA_DIR: dataDir,
    IMAGE_URL_SIGNING_KEY: testUrlSigningKey,
    // Whatever the shared test infrastructure exported: this product keeps files in its folder.
    S3_BUCKET: '',
    S3_ENDPOINT: '',
    REDIS_URL: '',
    // A dead worker's jobs are taken over within seconds, not minutes.
    GENERATION_LEASE_SECONDS: '4',
    GENERATION_SWEEP_INTERVAL_MS: '500',
    GENERATION_SWEEP_GRACE_MS: '2000',
    GENERATION_RETRY_BASE_MS: '200',
    GENERATION_CONCURRENCY: '2',
  };
  const envOf: Record<ProcessName, () => Record<string, string>> = {
    identity: () => ({
      JWT_PRIVATE_KEY: jwtPrivateKey,
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
    }),
    ledger: () => ({}),
    image: () => ({ LEDGER_ADDR: addr(port.ledger) }),
    billing: () => ({
      DATABASE_URL: billingUrl.toString(),
      PAYMENTS_PROVIDER: 'local',
      LOCAL_WEBHOOK_SECRET: WEBHOOK_SECRET,
      PUBLIC_BASE_URL: base,
    }),
    analytics: () => ({}),
    'image-worker': () => ({
      // The worker's link to Kafka goes through the proxy: its bootstrap and the address the
      // broker's second listener advertises are both the proxy's.
      KAFKA_BROKERS: workerKafka,
      LEDGER_ADDR: addr(port.ledger),
      // The instant stand-in engine; it refuses the photos traffic.ts makes 33 pixels wide.
      TEST_ENGINE: 'complete-or-refuse',
      TEST_DATABASE: 'flatlay_image',
    }),
    gateway: () => ({
      PORT: String(port.gateway),
      HOST: '127.0.0.1',
      IDENTITY_ADDR: identityLink,
      LEDGER_ADDR: ledgerLink,
      IMAGE_ADDR: addr(port.image),
      BILLING_ADDR: addr(port.billing),
      ANALYTICS_ADDR: addr(port.analytics),
      CORS_ORIGINS: base,
      // Many users from one address in one run.
      AUTH_RATE_LIMIT_PER_IP: '100000',
      SIGNUPS_PER_CLIENT_PER_HOUR: '100000',
      ANON_GENERATIONS_PER_IP_PER_HOUR: '100000',
    }),
  };
  const argsOf = (name: ProcessName) =>
    name === 'gateway'
      ? ['gateway/dist/main.js']
      : name === 'image-worker'
        ? ['--conditions=source', '--import', 'tsx', workerScript]
        : [`services/${name}/dist/main.js`];

  const running = new Map<ProcessName, ChildRun>();
  const logs = new Map<ProcessName, string>();
  const start = (name: ProcessName) => {
    const run = startNode(argsOf(name), {
      ...common,
      DATABASE_URL: infra.FAULT_DATABASE_URL,
      GRPC_HOST: '127.0.0.1',
      GRPC_PORT: String(port[name]),
      ...serviceKeyEnv(name === 'image-worker' ? 'image-worker' : name),
      ...envOf[name](),
    });
    running.set(name, run);
    run.exited.then(() => logs.set(name, `${logs.get(name) ?? ''}${run.output()}`.slice(-8_000)));
  };
  const serves = async (name: ProcessName) => {
    const run = running.get(name)!;
    if (run.child.exitCode !== null) throw new Error(`${name} exited:\n${run.output().slice(-4_000)}`);
    if (name === 'gateway')
      return fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
    if (name === 'image-worker') return run.output().includes('worker ready');
    return (await checkHealth(addr(port[name]))) === 'SERVING';
  };
  const until = (name: ProcessName, timeoutMs = 60_000) => waitFor(() => serves(name), `${name} to serve`, timeoutMs);

  const product: Product = {
    base,
    admin,
    toxiproxy,
    infra,
    databaseOf: (service) => {
      const u = new URL(infra.FAULT_DATABASE_URL);
      u.pathname = `/flatlay_${service}`;
      return u.toString();
    },
    async killAndRestart(name) {
      const run = running.get(name)!;
      run.child.kill('SIGKILL');
      await run.exited;
      start(name);
      await until(name);
    },
    async healthy(timeoutMs = 60_000) {
      for (const name of running.keys()) await until(name, timeoutMs);
    },
    output: () =>
      [...running]
        .map(([name, run]) => `--- ${name}\n${(logs.get(name) ?? '') + run.output()}`.slice(-3_000))
        .join('\n'),
    async stop() {
      await Promise.all(
        [...running.values()].map(async (run) => {
          if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGTERM');
          const gone = await Promise.race([run.exited, new Promise((r) => setTimeout(() => r('late'), 10_000))]);
          if (gone === 'late') {
            run.child.kill('SIGKILL');
            await run.exited;
          }
        }),
      );
      await rm(dataDir, { recursive: true, force: true });
    },
  };

  // Each service migrates its own database; identity and the ledger first (the others call them).
  try {
    for (const name of ['identity', 'ledger'] as const) start(name);
    await Promise.all([until('identity', 120_000), until('ledger', 120_000)]);
    for (const name of ['image', 'billing', 'analytics'] as const) start(name);
    await Promise.all([until('image', 120_000), until('billing', 120_000), until('analytics', 120_000)]);
    start('image-worker');
    start('gateway');
    await Promise.all([until('image-worker', 120_000), until('gateway', 120_000)]);
  } catch (error) {
    const out = product.output();
    await product.stop();
    throw new Error(`${(error as Error).message}\n${out}`);
  }
  return product;
}
