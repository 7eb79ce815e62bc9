import { randomUUID } from 'node:crypto';
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, InProcessBus, startService, startTelemetry, type RunningService } from '@flatlay/platform';
import { ledgerService } from '@flatlay/ledger';
import { billingService } from '@flatlay/billing';
import { requireEnv } from '../../services/platform/test/support.js';
import { createGatewayApp, listen } from '../src/index.js';

interface ErrorBody {
  detail: string;
  message: string;
}
interface HealthBody {
  status: string;
  services: Record<string, string>;
}

describe('gateway', { timeout: 120_000 }, () => {
  let base: string;
  let http: Awaited<ReturnType<typeof listen>>;
  let services: RunningService[];
  const bus = new InProcessBus();

  beforeAll(async () => {
    startTelemetry('gateway-test');
    const logger = createLogger('gateway-test', 'silent');
    services = await Promise.all(
      [ledgerService, billingService].map((def) =>
        startService(def, {
          databaseUrl: requireEnv('DATABASE_URL'),
          // Its own (a shared database's outbox would go to whichever process's relay took it).
          database: `flatlay_${def.name}_gateway_int_${randomUUID().replaceAll('-', '').slice(0, 10)}`,
          bus,
          grpcPort: 0,
          logger,
        }),
      ),
    );
    const webDir = await mkdtemp(join(tmpdir(), 'web-'));
    await writeFile(join(webDir, 'index.html'), '<!doctype html><title>Flatlay SPA</title>');
    const app = createGatewayApp({
      logger,
      corsOrigins: ['https://shop.example'],
      webDir,
      services: services.map((s) => ({ name: s.name, address: `127.0.0.1:${s.port}` })),
    });
    http = await listen(app, '127.0.0.1', 0);
    base = `http://127.0.0.1:${http.port}`;
  });
  afterAll(async () => {
    await http.stop();
    for (const s of services) await s.stop().catch(() => undefined);
  });

  it('answers /healthz 200 with each service state when all are serving', async () => {
    const res = await fetch(`${base}/healthz`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { status: 'ok', services: { ledger: 'SERVING', billing: 'SERVING' } });
  });

  it('answers unknown /api paths with a JSON 404 that has detail and message', async () => {
    const res = await fetch(`${base}/api/does-not-exist`);
    assert.equal(res.status, 404);
    const body = (await res.json()) as ErrorBody;
    assert.equal(body.detail, 'No API route for GET /does-not-exist');
    assert.equal(body.message, body.detail);
  });

  it('rejects malformed and oversized JSON with a 4xx JSON error', async () => {
    const bad = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":',
    });
    assert.equal(bad.status, 400);
    assert.match(((await bad.json()) as ErrorBody).message, /not valid JSON/);
    const big = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ a: 'x'.repeat(2_000_000) }),
    });
    assert.equal(big.status, 413);
    assert.match(((await big.json()) as ErrorBody).detail, /too large/);
  });

  it('serves the SPA for other paths, with security headers and a request id', async () => {
    const res = await fetch(`${base}/dashboard/history`);
    assert.equal(res.status, 200);
    assert.match(await res.text(), /Flatlay SPA/);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.ok(res.headers.get('content-security-policy'));
    assert.match(res.headers.get('x-request-id') ?? '', /^[\w-]{8,}$/);
  });

  it("continues a caller's W3C trace and returns its trace id", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const res = await fetch(`${base}/healthz`, { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
    assert.match(res.headers.get('traceparent') ?? '', new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    const fresh = await fetch(`${base}/healthz`);
    const freshTrace = fresh.headers.get('traceparent') ?? '';
    assert.match(freshTrace, /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    assert.ok(!freshTrace.includes(traceId), 'a request without a trace starts its own');
  });

  it('allows configured origins only (CORS)', async () => {
    const allowed = await fetch(`${base}/api/x`, { headers: { origin: 'https://shop.example' } });
    assert.equal(allowed.headers.get('access-control-allow-origin'), 'https://shop.example');
    const other = await fetch(`${base}/api/x`, { headers: { origin: 'https://evil.example' } });
    assert.equal(other.headers.get('access-control-allow-origin'), null);
  });

  it('answers 503 naming the service that is down', async () => {
    await services[1]!.stop();
    // The services are asked at most once a second (a probe's answer may be that old): poll.
    let res = await fetch(`${base}/healthz`);
    for (let i = 0; res.status !== 503 && i < 100; i++) {
      await new Promise((ok) => setTimeout(ok, 100));
      res = await fetch(`${base}/healthz`);
    }
    assert.equal(res.status, 503);
    const body = (await res.json()) as HealthBody;
    assert.equal(body.services.ledger, 'SERVING');
    assert.notEqual(body.services.billing, 'SERVING');
  });
});
