// The metrics are real (issue 30): the process's /metrics, scraped as Prometheus would, while the
// gateway, identity, ledger, billing and image (with a generation worker on a stand-in engine)
// serve real traffic on real Postgres, Kafka and Redis. Each named series must exist and move: a
// sign-up (an HTTP route, gRPC methods, an outbox publish, an event consumed over Kafka, the
// ledger's grant), a pack paid on the local checkout page (a webhook, a payment, the ledger's
// credit), a webhook with a bad signature, and a generation (the queue, a busy slot, the job's and
// the engine stages' durations). Two rounds of the same traffic, a scrape after each: every counter
// is higher in the second.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { topics } from '@flatlay/proto';
import { startMetrics, stopMetrics, type RunningMetrics } from '@flatlay/platform';
import { scrape as scrapeAt, seriesValue } from '../../services/platform/test/metrics-scrape.js';
import { waitFor } from '../../services/platform/test/support.js';
import type { EnhanceEngine } from '../../services/image/src/app/generation-worker.js';
import { pay } from './support/local-checkout.js';
import { startStack, type Stack, type TransactionsBody } from './support/stack.js';
import { documentedSeries } from '../../tests/support/documented-metrics.js';

const photo = await readFile(new URL('../../services/image/test/fixtures/top_floor_01.jpg', import.meta.url));

/** Holds each job until the test opens its gate, so a busy slot and a running job can be seen. */
let gate: Promise<void> = Promise.resolve();
const heldEngine: EnhanceEngine = {
  async enhance() {
    await gate;
    const full = await sharp({ create: { width: 80, height: 60, channels: 3, background: '#ffffff' } })
      .jpeg()
      .toBuffer();
    // The stage timings the real engine reports (milliseconds).
    const timings = { decode: 2.5, segment: 12, finish: 4 };
    return { full, preview: full, thumbnail: full, width: 80, height: 60, format: 'jpeg', timings } as never;
  },
  async close() {},
};

describe('metrics under real traffic', () => {
  let metrics: RunningMetrics;
  let s: Stack;

  beforeAll(async () => {
    // Started before the services, as every entry point does: their instruments record into it.
    metrics = await startMetrics({ serviceName: 'metrics-int-test', port: 0, host: '127.0.0.1' });
    s = await startStack('metrics-test', undefined, { billing: {}, image: { engine: heldEngine } });
  });
  afterAll(async () => {
    await s?.stop();
    await stopMetrics();
  });

  const scrape = () => scrapeAt(metrics.url!);

  /** One round: a sign-up granted its tokens over Kafka, a pack paid and credited, a forged webhook. */
  const traffic = async () => {
    const user = await s.newUser('metrics');
    const balance = async () =>
      (await s.request<TransactionsBody>('GET', '/tokens/', { token: user.token })).body.balance ?? 0;
    await waitFor(async () => (await balance()) > 0, 'the sign-up grant, consumed from Kafka');
    const granted = await balance();
    const started = await s.request<{ url: string }>('POST', '/payments/create-checkout-session', {
      token: user.token,
      json: { price_id: 'price_main_pack', product_type: 'payment' },
    });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    await pay(s.base, started.body.url);
    await waitFor(async () => (await balance()) > granted, 'the pack credited, consumed from Kafka');
    // A generation, held in the engine until a scrape has seen it running in a busy slot.
    let open: () => void = () => undefined;
    gate = new Promise((ok) => {
      open = ok;
    });
    const upload = new FormData();
    upload.append('file', new Blob([photo]), 'photo.jpg');
    upload.append('enhancement_type', 'tops');
    const generated = await s.request<{ id: string }>('POST', '/images/generate', {
      token: user.token,
      multipart: upload,
    });
    assert.equal(generated.status, 200, JSON.stringify(generated.body));
    await waitFor(async () => {
      const now = await scrape();
      return (
        (seriesValue(now, 'flatlay_image_worker_slots_busy') ?? 0) >= 1 &&
        (seriesValue(now, 'flatlay_image_generation_queue_depth', { flatlay_job_status: 'running' }) ?? 0) >= 1
      );
    }, 'the job running in a busy slot');
    open();
    const status = async () =>
      (await s.request<{ status: string }>('GET', `/images/status/${generated.body.id}`, { token: user.token })).body
        .status;
    await waitFor(async () => (await status()) === 'completed', 'the generation completed');
    const forged = await s.request('POST', '/webhooks/stripe', {
      json: { id: 'evt_forged', type: 'checkout.session.completed' },
      headers: { 'stripe-signature': 't=1,v1=forged' },
    });
    assert.equal(forged.status, 400);
  };

  it('serves every named series, and each counter moves between two scrapes', async () => {
    await traffic();
    const first = await scrape();
    await traffic();
    const second = await scrape();

    // Counters (and histograms' counts) that the traffic must move.
    const moving: Array<[string, Record<string, string>]> = [
      [
        'http_server_request_duration_count',
        {
          http_route: '/api/auth/register',
          http_request_method: 'POST',
          http_response_status_code: '201',
          http_response_status_class: '2xx',
        },
      ],
      ['http_server_request_duration_count', { http_route: '/api/tokens/', http_response_status_class: '2xx' }],
      ['http_server_request_duration_count', { http_route: '/api/webhooks/stripe', http_response_status_class: '4xx' }],
      [
        'rpc_server_call_duration_count',
        {
          rpc_system: 'grpc',
          rpc_service: 'flatlay.identity.v1.IdentityService',
          rpc_method: 'Register',
          rpc_grpc_status_code: 'OK',
        },
      ],
      ['rpc_server_call_duration_count', { rpc_method: 'HandleWebhook', rpc_grpc_status_code: 'INVALID_ARGUMENT' }],
      ['flatlay_outbox_published_total', { flatlay_outbox_relay: 'outbox-relay:identity' }],
      ['flatlay_outbox_published_total', { flatlay_outbox_relay: 'outbox-relay:billing' }],
      [
        'flatlay_messaging_consumer_messages_total',
        { messaging_destination_name: topics.identityUser, flatlay_outcome: 'handled' },
      ],
      [
        'flatlay_messaging_consumer_messages_total',
        { messaging_destination_name: topics.billingPayment, flatlay_outcome: 'handled' },
      ],
      ['messaging_process_duration_count', { messaging_destination_name: topics.identityUser }],
      ['flatlay_ledger_commands_total', { flatlay_command: 'SignUpGrant', flatlay_outcome: 'applied' }],
      ['flatlay_ledger_commands_total', { flatlay_command: 'CreditPayment', flatlay_outcome: 'applied' }],
      ['flatlay_billing_webhooks_total', { flatlay_billing_fact: 'checkout_completed', flatlay_outcome: 'applied' }],
      ['flatlay_billing_webhooks_total', { flatlay_billing_fact: 'unknown', flatlay_outcome: 'bad_signature' }],
      ['flatlay_billing_payments_total', { flatlay_payment_kind: 'checkout', flatlay_outcome: 'succeeded' }],
      ['flatlay_ledger_commands_total', { flatlay_command: 'SpendForImage', flatlay_outcome: 'applied' }],
      ['flatlay_image_generation_duration_count', { flatlay_outcome: 'completed' }],
      ['flatlay_image_engine_stage_duration_count', { flatlay_engine_stage: 'segment' }],
      [
        'http_server_request_duration_count',
        { http_route: '/api/images/status/:id', http_response_status_class: '2xx' },
      ],
    ];
    for (const [name, labels] of moving) {
      const before = seriesValue(first, name, labels);
      const after = seriesValue(second, name, labels);
      const what = `${name}${JSON.stringify(labels)}`;
      assert.ok(before !== undefined && before > 0, `${what} is served after the first round (${before})`);
      assert.ok(after !== undefined && after > before, `${what} moves: ${before} then ${after}`);
    }

    // Gauges: read at each scrape, present for each service and consumer group (their values
    // follow the traffic's timing, so only their presence and range are checked).
    const gauges: Array<[string, Record<string, string>]> = [
      ['flatlay_outbox_backlog', { flatlay_service: 'identity' }],
      ['flatlay_outbox_backlog', { flatlay_service: 'ledger' }],
      ['flatlay_outbox_backlog', { flatlay_service: 'billing' }],
      ['flatlay_outbox_oldest_age', { flatlay_service: 'identity' }],
      ['flatlay_messaging_consumer_lag', { messaging_destination_name: topics.identityUser }],
      ['flatlay_messaging_consumer_lag', { messaging_destination_name: topics.imageGenerationRequested }],
      ['flatlay_outbox_backlog', { flatlay_service: 'image' }],
      ['flatlay_image_generation_queue_depth', { flatlay_job_status: 'queued' }],
      ['flatlay_image_generation_queue_oldest_wait', {}],
      ['flatlay_image_worker_slots_busy', {}],
    ];
    for (const [name, labels] of gauges) {
      const value = seriesValue(second, name, labels);
      assert.ok(value !== undefined && value >= 0, `${name}${JSON.stringify(labels)} is served (${value})`);
    }
    // The worker's slots: GENERATION_CONCURRENCY of the stack's worker.
    assert.equal(seriesValue(second, 'flatlay_image_worker_slots_limit'), 2);

    // docs/operations.md "Metrics" is what is served (the chart's alerts and dashboards are held to
    // that list, tests/monitoring.int.spec.ts): every series of the scrape is documented, and every
    // documented one is served, but analytics' projection lag (analytics is not in this stack).
    const documented = documentedSeries();
    const served = new Set(second.map((x) => x.name).filter((n) => n !== 'target_info'));
    for (const n of served) assert.ok(documented.has(n), `${n} is served but not in docs/operations.md`);
    const elsewhere = new Set(['flatlay_analytics_projection_lag']);
    for (const n of documented)
      if (!elsewhere.has(n)) assert.ok(served.has(n), `${n} is in docs/operations.md but not served`);

    // Labels stay bounded: no series names a user's id or any raw path.
    const routes = new Set(second.map((x) => x.labels.http_route).filter(Boolean));
    for (const route of routes) assert.doesNotMatch(route!, /[0-9a-f]{8}-[0-9a-f]{4}-/, `route ${route} is a template`);
  });

  it('answers 404 off /metrics', async () => {
    const res = await fetch(metrics.url!.replace('/metrics', '/other'));
    assert.equal(res.status, 404);
  });
});
