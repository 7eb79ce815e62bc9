// A real Prometheus (github.com/prometheus/prometheus, built by scripts/infra/prometheus.mjs)
// scraping the product in its distributed shape (issue 30, ADR 0305): identity, ledger, image,
// billing and analytics each their own process (services/<name>/dist/main.js), the generation worker
// (services/image/dist/worker.js, on the instant stand-in engine) and the gateway (gateway/dist/main.js),
// each with its own metrics port, as the chart's PodMonitors scrape them; the chart's alert rules
// (the rendered PrometheusRule) loaded. Through Prometheus's HTTP API: every target is up, the named
// flatlay_ series (gauges at once, counters after a sign-up) are queryable with the job that
// exports them, and every alert rule has been evaluated with health "ok" (a rule Prometheus cannot
// evaluate reports "err"). A target on a port nothing listens on is scraped beside them and must be
// reported down: the up check tells the two apart.
import { afterAll, beforeAll, describe, it } from 'vitest';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { checkHealth, freePort } from '@flatlay/platform';
import {
  serviceKeyEnv,
  startCommand,
  startNode,
  testUrlSigningKey,
  type ChildRun,
} from '../services/platform/test/process.js';
import { steadyPorts } from '../services/platform/test/ports.js';
import { freshTopicPrefix, requireEnv, testKafkaBus, waitFor } from '../services/platform/test/support.js';
import { renderChart, repoRoot } from './support/helm.js';

const PROMETHEUS = join(repoRoot, '.infra', 'bin', 'prometheus');
const SERVICES = ['identity', 'ledger', 'image', 'billing', 'analytics'] as const;
type Job = (typeof SERVICES)[number] | 'image-worker' | 'gateway';
const JOBS: Job[] = [...SERVICES, 'image-worker', 'gateway'];

// biome-ignore lint/suspicious/noExplicitAny: Prometheus's API answers and rendered objects are untyped
type Json = any;

/**
 * How long the seven processes and Prometheus, started at once, may take to serve. Measured on the
 * 2-core machine with the container tier starting its seven containers beside it (load 11 to 28):
 * 34 s to the last of them when identity and the ledger were started first and the five others
 * once those served, Prometheus after them; 35 s all at once (Prometheus ready at 11 s).
 */
const SERVE_WAIT_MS = 85_000;

describe('Prometheus scraping the distributed product, with the chart’s alerts', () => {
  const running = new Map<Job, ChildRun>();
  let prometheus: ChildRun | undefined;
  let dir: string;
  let api: string;
  let gateway: string;
  const topicPrefix = freshTopicPrefix();
  const metricsPort = {} as Record<Job, number>;
  let alerts: string[];

  const output = () =>
    [...running, ...(prometheus ? [['prometheus', prometheus] as const] : [])]
      .map(([name, run]) => `--- ${name}\n${run.output().slice(-2_000)}`)
      .join('\n');
  const query = async (promql: string): Promise<Json[]> => {
    const res = await fetch(`${api}/api/v1/query?query=${encodeURIComponent(promql)}`);
    const body = (await res.json()) as Json;
    assert.equal(body.status, 'success', `${promql}: ${JSON.stringify(body)}`);
    return body.data.result;
  };

  beforeAll(async () => {
    if (!existsSync(PROMETHEUS))
      throw new Error('prometheus is missing at .infra/bin/prometheus: run `node scripts/infra.mjs install`');
    dir = mkdtempSync(join(tmpdir(), 'flatlay-prometheus-'));
    const grpcPort = {} as Record<Job, number>;
    const chosen = await steadyPorts(2 * JOBS.length + 1);
    JOBS.forEach((job, i) => {
      grpcPort[job] = chosen[2 * i]!;
      metricsPort[job] = chosen[2 * i + 1]!;
    });
    const httpPort = chosen.at(-1)!;
    gateway = `http://127.0.0.1:${httpPort}`;
    const addr = (job: Job) => `127.0.0.1:${grpcPort[job]}`;
    const jwtPrivateKey = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const envOf: Record<Job, Record<string, string>> = {
      identity: { JWT_PRIVATE_KEY: jwtPrivateKey },
      ledger: {},
      image: { LEDGER_ADDR: addr('ledger') },
      billing: { PAYMENTS_PROVIDER: 'local', PUBLIC_BASE_URL: gateway },
      analytics: {},
      // The stand-in engine: the worker's metrics are what is scraped here, not its pictures.
      'image-worker': { LEDGER_ADDR: addr('ledger'), IMAGE_ENGINE: 'instant' },
      gateway: {
        PORT: String(httpPort),
        HOST: '127.0.0.1',
        IDENTITY_ADDR: addr('identity'),
        LEDGER_ADDR: addr('ledger'),
        IMAGE_ADDR: addr('image'),
        BILLING_ADDR: addr('billing'),
        ANALYTICS_ADDR: addr('analytics'),
        CORS_ORIGINS: gateway,
      },
    };
    const entry = (job: Job) =>
      job === 'gateway'
        ? 'gateway/dist/main.js'
        : job === 'image-worker'
          ? 'services/image/dist/worker.js'
          : `services/${job}/dist/main.js`;
    const start = (job: Job) =>
      running.set(
        job,
        startNode([join(repoRoot, entry(job))], {
          NODE_ENV: 'test',
          LOG_LEVEL: 'warn',
          DATABASE_URL: requireEnv('DATABASE_URL'),
          KAFKA_BROKERS: requireEnv('KAFKA_BROKERS'),
          KAFKA_TOPIC_PREFIX: topicPrefix,
          FLATLAY_DATA_DIR: join(dir, 'data'),
          IMAGE_URL_SIGNING_KEY: testUrlSigningKey,
          // Files in the data folder and the gateway's cache in memory, whatever the shell exported.
          S3_BUCKET: '',
          S3_ENDPOINT: '',
          REDIS_URL: '',
          GRPC_HOST: '127.0.0.1',
          GRPC_PORT: String(grpcPort[job]),
          METRICS_PORT: String(metricsPort[job]),
          ...serviceKeyEnv(job),
          ...envOf[job],
        }),
      );
    const serves = async (job: Job) => {
      const run = running.get(job)!;
      if (run.child.exitCode !== null) throw new Error(`${job} exited:\n${run.output().slice(-4_000)}`);
      if (job === 'gateway')
        return fetch(`${gateway}/healthz`).then(
          (r) => r.ok,
          () => false,
        );
      return (await checkHealth(addr(job))) === 'SERVING';
    };
    // All seven at once, as a release rolls out (the product's gRPC clients connect on first use,
    // so none needs another to be up first; the container tier starts its components so too), and
    // Prometheus beside them (a target is down until its process serves).
    for (const job of JOBS) start(job);

    // The chart's alert rules, as its PrometheusRule renders them.
    const [rule] = renderChart(['--set', 'monitoring.rules.enabled=true']).filter((o) => o.kind === 'PrometheusRule');
    writeFileSync(join(dir, 'alerts.yaml'), stringify(rule.spec));
    alerts = rule.spec.groups.flatMap((g: Json) => g.rules.map((r: Json) => r.alert));
    const nothing = await freePort();
    // One job per process, labelled with a namespace as a PodMonitor's series are; scraped every 2
    // and evaluated every second so the test waits seconds, not the production minute.
    const config = {
      global: { scrape_interval: '2s', scrape_timeout: '2s', evaluation_interval: '1s' },
      rule_files: [join(dir, 'alerts.yaml')],
      scrape_configs: [
        ...JOBS.map((job) => ({
          job_name: job,
          static_configs: [{ targets: [`127.0.0.1:${metricsPort[job]}`], labels: { namespace: 'flatlay' } }],
        })),
        { job_name: 'nothing', static_configs: [{ targets: [`127.0.0.1:${nothing}`] }] },
      ],
    };
    writeFileSync(join(dir, 'prometheus.yml'), stringify(config));
    const port = await freePort();
    api = `http://127.0.0.1:${port}`;
    prometheus = startCommand(
      PROMETHEUS,
      [
        `--config.file=${join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(dir, 'tsdb')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        '--log.level=warn',
      ],
      { PATH: process.env.PATH },
    );
    try {
      await Promise.all([
        ...JOBS.map((j) => waitFor(() => serves(j), `${j} to serve`, SERVE_WAIT_MS)),
        waitFor(
          async () => {
            if (prometheus!.child.exitCode !== null) throw new Error(`prometheus exited:\n${prometheus!.output()}`);
            return (await fetch(`${api}/-/ready`).catch(() => undefined))?.ok === true;
          },
          'prometheus to be ready',
          SERVE_WAIT_MS,
        ),
      ]);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${output()}`);
    }
  }, SERVE_WAIT_MS + 10_000);

  afterAll(async () => {
    const all = [...running.values(), ...(prometheus ? [prometheus] : [])];
    for (const run of all) if (run.child.exitCode === null) run.child.kill('SIGTERM');
    await Promise.all(all.map((run) => run.exited));
    // The stack's topics and groups on the shared broker.
    await testKafkaBus('monitoring-scrape-cleanup', { prefix: topicPrefix }).close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  // The tests' ceilings: measured 0.1 to 6.5 s, 2.7 to 4.9 s and under 0.3 s (load 11 to 28).
  it('scrapes every process: each target up, and a target with nothing behind it down', async () => {
    // Up once each has answered a scrape in time (a loaded machine may miss the first one: the
    // scrape reads lag from Kafka and backlogs from Postgres).
    const expected = { ...Object.fromEntries(JOBS.map((j) => [j, '1'])), nothing: '0' };
    const byJob = async () => Object.fromEntries((await query('up')).map((r) => [r.metric.job, r.value[1]]));
    await waitFor(
      async () =>
        JSON.stringify(Object.entries(await byJob()).sort()) === JSON.stringify(Object.entries(expected).sort()),
      'every product target up',
      45_000,
    ).catch(async (e) => {
      const targets = (await (await fetch(`${api}/api/v1/targets`)).json()) as Json;
      throw new Error(
        `${(e as Error).message}: ${JSON.stringify(await byJob())}\n${targets.data.activeTargets
          .map((t: Json) => `${t.labels.job} ${t.health} ${t.lastError}`)
          .join('\n')}\n${output()}`,
      );
    });
    for (const r of await query('up')) if (r.metric.job !== 'nothing') assert.equal(r.metric.namespace, 'flatlay');
  }, 60_000);

  it('answers the named flatlay_ series, each from the process that exports it', async () => {
    // A sign-up: an HTTP route (gateway), gRPC calls (identity), an outbox publish, and the ledger's
    // grant consumed over Kafka.
    const res = await fetch(`${gateway}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `scrape-${topicPrefix.slice(5, 13)}@example.com`, password: 'monitoring pw 1' }),
    });
    assert.equal(res.status, 201, await res.text());
    const jobsOf = async (promql: string) => new Set((await query(promql)).map((r) => r.metric.job as string));
    const expected: Array<[string, Job[]]> = [
      ['flatlay_outbox_backlog', [...SERVICES]],
      ['flatlay_outbox_oldest_age', [...SERVICES]],
      ['flatlay_messaging_consumer_lag{messaging_consumer_group_name!~"gateway-cache-.*"}', ['ledger', 'analytics']],
      ['flatlay_image_generation_queue_oldest_wait', ['image']],
      ['flatlay_image_worker_slots_limit', ['image-worker']],
      ['flatlay_analytics_projection_lag', ['analytics']],
      [
        'http_server_request_duration_count{http_route="/api/auth/register",http_response_status_class="2xx"}',
        ['gateway'],
      ],
      ['rpc_server_call_duration_count{rpc_method="Register",rpc_grpc_status_code="OK"}', ['identity']],
      ['flatlay_outbox_published_total{flatlay_outbox_relay="outbox-relay:identity"}', ['identity']],
      ['flatlay_ledger_commands_total{flatlay_command="SignUpGrant",flatlay_outcome="applied"}', ['ledger']],
    ];
    // One deadline for all of them (each waits what is left of it), inside the test's own.
    const until = Date.now() + 45_000;
    for (const [promql, jobs] of expected) {
      await waitFor(
        async () => {
          const found = await jobsOf(promql);
          return jobs.every((j) => found.has(j));
        },
        `${promql} through Prometheus`,
        until - Date.now(),
      ).catch(async (e) => {
        throw new Error(`${(e as Error).message}: ${JSON.stringify(await query(promql))}\n${output()}`);
      });
    }
  }, 60_000);

  it('evaluates every alert rule of the chart with health ok', async () => {
    const rules = async (): Promise<Json[]> => {
      const body = (await (await fetch(`${api}/api/v1/rules?type=alert`)).json()) as Json;
      return body.data.groups.flatMap((g: Json) => g.rules);
    };
    // Evaluated at least once: Prometheus sets lastEvaluation then (the zero time before).
    await waitFor(
      async () => {
        const all = await rules();
        return all.length === alerts.length && all.every((r) => !r.lastEvaluation.startsWith('0001-'));
      },
      'every rule evaluated',
      30_000,
    );
    const all = await rules();
    assert.deepEqual(all.map((r) => r.name).sort(), [...alerts].sort());
    for (const r of all) assert.equal(r.health, 'ok', `${r.name}: ${r.health} ${r.lastError ?? ''}`);
  }, 45_000);
});
