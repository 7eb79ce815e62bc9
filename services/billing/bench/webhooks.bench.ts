// `npm run bench:webhooks`: signed Stripe webhook events (token pack purchases) per second, from
// HandleWebhook over gRPC to the ledger's credit (billing's transaction and outbox, the relay, the
// bus, the ledger's consumer), at 1 and 10 concurrent senders; and, in the same run, the bare
// signature check (stripe.webhooks.constructEvent) on one core as the limit. Prints figures.
import { randomUUID } from 'node:crypto';
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
} from '@flatlay/platform';
import { ledgerService } from '@flatlay/ledger';
import Stripe from 'stripe';
import { signWebhook } from '../src/app/webhook-signature.js';
import { createBillingService } from '../src/service.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const secret = 'whsec_bench_webhooks';

async function serverUrl(): Promise<{ url: string; stop?: () => Promise<void> }> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL };
  const infra = await import('../../../scripts/infra.mjs');
  const env = await infra.up();
  return { url: env.DATABASE_URL, stop: () => infra.down() };
}

function packEvent(): { payload: Buffer; signature: string } {
  const sessionId = `cs_${randomUUID().replaceAll('-', '')}`;
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
        customer: 'cus_bench',
        payment_intent: `pi_${sessionId}`,
        amount_total: 2400,
        currency: 'usd',
        metadata: { user_id: randomUUID(), kind: 'token_pack', pack_id: 'main_pack', tokens: '1500' },
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
const run = randomUUID().replaceAll('-', '').slice(0, 8);
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
const ledgerRunning = await startService(ledgerService, {
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
      `SELECT count(*)::int AS n FROM account_transactions WHERE description = 'Main pack purchase'`,
    )
  ).rows[0].n as number;

async function measure(senders: number) {
  const before = await credited();
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
  latencies.sort((a, b) => a - b);
  return {
    senders,
    events: sent,
    handledPerSecond: sent / ((handled - start) / 1000),
    creditedPerSecond: sent / ((done - start) / 1000),
    p50: latencies[Math.floor(latencies.length / 2)]!,
    p99: latencies[Math.floor(latencies.length * 0.99)]!,
  };
}

const bare = bareSignatureChecks();
const rows = [await measure(1), await measure(10)];
console.log(`bus: ${process.env.KAFKA_BROKERS ? 'Kafka' : 'in-process'}; ${SECONDS} s per run`);
console.log(`bare signature check (constructEvent, one core): ${bare.toFixed(0)} events/s (the limit)`);
for (const r of rows)
  console.log(
    `${String(r.senders).padStart(2)} senders: ${r.events} events, HandleWebhook ${r.handledPerSecond.toFixed(0)}/s ` +
      `(p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms), credited by the ledger ${r.creditedPerSecond.toFixed(0)}/s ` +
      `= ${((r.creditedPerSecond / bare) * 100).toFixed(1)}% of the bare check`,
  );
client.close();
await ledgerRunning.stop();
await billingRunning.stop();
await bus.close();
await server.stop?.();
