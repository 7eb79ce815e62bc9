// `npm run bench:webhooks`: signed Stripe webhook events (token pack purchases) per second, from
// HandleWebhook over gRPC to the ledger's credit (billing's transaction and outbox, the relay, the
// bus, the ledger's consumer), at 1 and SENDERS concurrent senders; and, in the same run, the bare
// signature check (stripe.webhooks.constructEvent) on one core as the limit. Prints the figures,
// each rate as a share of that limit, and whether the end-to-end rate reaches the target share.
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { billing } from '@flatlay/proto';
import {
  type Bus,
  call,
  createClient,
  createLogger,
  InProcessBus,
  KafkaBus,
  serviceCredential,
  startService,
  type ServiceDefinition,
} from '@flatlay/platform';
import { ledgerService } from '@flatlay/ledger';
import { TokenAccounts } from '../../ledger/src/app/token-accounts.js';
import { consumedTopics, ledgerEventHandler } from '../../ledger/src/consumers/ledger-consumers.js';
import Stripe from 'stripe';
import { signWebhook } from '../src/app/webhook-signature.js';
import { createBillingService } from '../src/service.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const SENDERS = Number(process.env.BENCH_SENDERS ?? 16);
/**
 * The target: events credited end to end per second at SENDERS senders, as a share of the bare
 * signature check in the same run. A delivery is a transaction in billing, a Kafka round trip and a
 * transaction in the ledger, against one HMAC for the bare check, so the share stays small; 2%
 * (about 400 events/s against ~20,000 checks/s) is far above any real payment rate.
 */
const TARGET_SHARE = Number(process.env.BENCH_TARGET_SHARE ?? 0.02);
const secret = 'whsec_bench_webhooks';
/** This run's mark: its users' ids start with it, so only its own credits are counted. */
const run = randomUUID().replaceAll('-', '').slice(0, 8);

async function serverUrl(): Promise<{ url: string; stop?: () => Promise<void> }> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL };
  const infra = await import('../../../scripts/infra.mjs');
  const env = await infra.up();
  return { url: env.DATABASE_URL, stop: () => infra.down() };
}

/** One buyer's pack purchase: each user has a customer of their own, as with Stripe. */
function packEvent(): { payload: Buffer; signature: string } {
  const sessionId = `cs_${randomUUID().replaceAll('-', '')}`;
  const userId = `${run}${randomUUID().slice(8)}`;
  const json = JSON.stringify({
    id: `evt_${randomUUID().replaceAll('-', '')}`,
    object: 'event',
    type: 'checkout.session.completed',
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: sessionId,
        object: 'checkout.session',
        mode: 'payment',
        payment_status: 'paid',
        customer: `cus_${userId.replaceAll('-', '')}`,
        payment_intent: `pi_${sessionId}`,
        amount_total: 2400,
        currency: 'usd',
        metadata: { user_id: userId, kind: 'token_pack', pack_id: 'main_pack', tokens: '1500' },
      },
    },
  });
  return { payload: Buffer.from(json), signature: signWebhook(json, secret) };
}

function bareSignatureChecks(): number {
  const { payload, signature } = packEvent();
  const until = performance.now() + SECONDS * 1000;
  let n = 0;
  while (performance.now() < until) {
    Stripe.webhooks.constructEvent(payload, signature, secret);
    n++;
  }
  return n / SECONDS;
}

const server = await serverUrl();
const bus: Bus = process.env.KAFKA_BROKERS
  ? new KafkaBus({ brokers: process.env.KAFKA_BROKERS.split(','), clientId: `bench-webhooks-${run}` })
  : new InProcessBus();
const logger = createLogger('bench', 'silent');
const billingRunning = await startService(
  createBillingService({
    consumerGroup: `billing-bench-${run}`,
    env: { STRIPE_SECRET_KEY: 'sk_test_bench', STRIPE_WEBHOOK_SECRET: secret, STRIPE_API_URL: 'http://127.0.0.1:9' },
  }),
  { databaseUrl: server.url, database: `bench_billing_${run}`, bus, grpcPort: 0, logger },
);
// The ledger in a consumer group of its own: in the service's group it would share the topics'
// partitions with any other ledger on the same Kafka, and this run's events would go to them.
const benchLedger: ServiceDefinition = {
  ...ledgerService,
  async start(ctx) {
    const subscription = await ctx.bus.subscribe({
      groupId: `ledger-bench-${run}`,
      topics: consumedTopics,
      handle: ledgerEventHandler(ctx.pool, new TokenAccounts(ctx.pool), ctx.logger),
    });
    return [() => subscription.close()];
  },
};
const ledgerRunning = await startService(benchLedger, {
  databaseUrl: server.url,
  database: `bench_ledger_${run}`,
  bus,
  grpcPort: 0,
  logger,
});
const client = createClient(
  billing.BillingServiceClient,
  `127.0.0.1:${billingRunning.port}`,
  serviceCredential('gateway'),
);
const credited = async () =>
  (
    await ledgerRunning.context.pool.query(
      `SELECT count(*)::int AS n FROM account_transactions WHERE user_id LIKE $1 AND description = 'Main pack purchase'`,
      [`${run}%`],
    )
  ).rows[0].n as number;

async function measure(senders: number) {
  console.error(`measuring ${senders} sender(s) for ${SECONDS} s…`);
  const before = await credited();
  const cpu = process.cpuUsage();
  const start = performance.now();
  const until = start + SECONDS * 1000;
  let sent = 0;
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: senders }, async () => {
      while (performance.now() < until) {
        const e = packEvent();
        const t = performance.now();
        await call(client, client.handleWebhook, e);
        latencies.push(performance.now() - t);
        sent++;
      }
    }),
  );
  const handled = performance.now();
  while ((await credited()) - before < sent) await new Promise((r) => setTimeout(r, 20));
  const done = performance.now();
  const used = process.cpuUsage(cpu);
  latencies.sort((a, b) => a - b);
  return {
    senders,
    events: sent,
    handledPerSecond: sent / ((handled - start) / 1000),
    creditedPerSecond: sent / ((done - start) / 1000),
    p50: latencies[Math.floor(latencies.length / 2)]!,
    p99: latencies[Math.floor(latencies.length * 0.99)]!,
    // CPU this process (sender, billing, relay, Kafka client, ledger) spent per credited event: on a
    // shared machine it moves far less with other work than the rates do.
    cpuMsPerEvent: (used.user + used.system) / 1000 / sent,
  };
}

// A fresh consumer group reads the topics from their beginning: let the ledger get through what
// other runs left there (its inbox stops growing) before anything is timed.
console.error('services started; the ledger catches up with the topics…');
const handledByLedger = async () =>
  (await ledgerRunning.context.pool.query('SELECT count(*)::int AS n FROM inbox')).rows[0].n as number;
for (let last = -1, now = await handledByLedger(); now !== last; last = now, now = await handledByLedger())
  await new Promise((r) => setTimeout(r, 2000));
console.error('measuring the bare signature check…');
const bare = bareSignatureChecks();
const rows = [await measure(1), await measure(SENDERS)];
const pct = (perSecond: number) => `${((perSecond / bare) * 100).toFixed(2)}%`;
const [cores1, cores5] = loadavg();
console.log(
  `bus: ${process.env.KAFKA_BROKERS ? 'Kafka' : 'in-process'}; ${SECONDS} s per run; ` +
    `load average ${cores1!.toFixed(1)} (1 min), ${cores5!.toFixed(1)} (5 min)`,
);
console.log(`limit: bare signature check (constructEvent, one core): ${bare.toFixed(0)} events/s`);
for (const r of rows)
  console.log(
    `${String(r.senders).padStart(2)} senders: ${r.events} events; HandleWebhook ${r.handledPerSecond.toFixed(0)}/s ` +
      `(${pct(r.handledPerSecond)} of the limit; p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms); ` +
      `credited by the ledger ${r.creditedPerSecond.toFixed(0)}/s (${pct(r.creditedPerSecond)} of the limit); ` +
      `${r.cpuMsPerEvent.toFixed(2)} ms of this process's CPU per event`,
  );
const best = rows[rows.length - 1]!;
const share = best.creditedPerSecond / bare;
console.log(
  `ratio: end to end at ${best.senders} senders / bare check = 1 : ${(1 / share).toFixed(0)} (${pct(best.creditedPerSecond)}); ` +
    `target ≥ ${(TARGET_SHARE * 100).toFixed(1)}% (${(TARGET_SHARE * bare).toFixed(0)} events/s): ${share >= TARGET_SHARE ? 'MET' : 'NOT MET'}`,
);
client.close();
await ledgerRunning.stop();
await billingRunning.stop();
await bus.close();
await server.stop?.();
