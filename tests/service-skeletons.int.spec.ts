// Each service as its own process, the Kubernetes shape: starts, migrates its own database,
// answers gRPC health and GetServiceStatus, serves its metrics, and stops cleanly on SIGTERM.
import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import pg from 'pg';
import { analytics, billing, identity, image, ledger } from '@flatlay/proto';
import { call, checkHealth, createClient } from '@flatlay/platform';
import { scrape, seriesValue } from '../services/platform/test/metrics-scrape.js';
import { requireEnv } from '../services/platform/test/support.js';
import { startServiceProcess } from '../services/platform/test/process.js';

const clients = {
  identity: identity.IdentityServiceClient,
  ledger: ledger.LedgerServiceClient,
  image: image.ImageServiceClient,
  billing: billing.BillingServiceClient,
  analytics: analytics.AnalyticsServiceClient,
};

describe('service processes', { timeout: 240_000 }, () => {
  for (const [name, Client] of Object.entries(clients)) {
    it(`${name}: starts, migrates its own database, answers health and status, stops on SIGTERM`, async () => {
      const service = await startServiceProcess(name, requireEnv('DATABASE_URL'));
      try {
        // Every service answers GetServiceStatus alike; one client type stands for all five.
        const client = createClient(
          Client as unknown as typeof identity.IdentityServiceClient,
          service.address,
          service.credential,
        );
        const status = await call(client, client.getServiceStatus, {});
        assert.equal(status.service, name);
        assert.ok(status.schemaVersion >= 2, 'platform and service migrations applied');
        client.close();

        // Its own /metrics, on the port it was given (METRICS_PORT), with the call just made and its outbox.
        const samples = await scrape(service.metricsUrl);
        assert.equal(seriesValue(samples, 'target_info', { service_name: name }), 1);
        assert.equal(
          seriesValue(samples, 'rpc_server_call_duration_count', {
            rpc_method: 'GetServiceStatus',
            rpc_grpc_status_code: 'OK',
          }),
          1,
        );
        assert.ok((seriesValue(samples, 'flatlay_outbox_backlog', { flatlay_service: name }) ?? -1) >= 0);

        const db = new pg.Client({
          connectionString: requireEnv('DATABASE_URL').replace(/\/postgres$/, `/flatlay_${name}`),
        });
        await db.connect();
        const owner = await db.query('SELECT service FROM service_info');
        const tables = await db.query(
          "SELECT table_name FROM information_schema.tables WHERE table_name IN ('es_events','outbox','inbox','checkpoints')",
        );
        await db.end();
        assert.deepEqual(owner.rows, [{ service: name }]);
        assert.equal(tables.rowCount, 4);
      } finally {
        service.child.kill('SIGTERM');
      }
      assert.equal(await service.exited, 0, `clean exit after SIGTERM:\n${service.output()}`);
      assert.equal(await checkHealth(service.address), 'UNREACHABLE');
    });
  }

  it('a service with a missing variable stops at once, naming it', async () => {
    const { startNode } = await import('../services/platform/test/process.js');
    const run = startNode(['services/ledger/dist/main.js'], { DATABASE_URL: '' });
    assert.notEqual(await run.exited, 0);
    assert.match(run.output(), /DATABASE_URL is required but not set/);
  });

  it('a service without its own key, or given the retired shared secret, stops at once, saying what it needs', async () => {
    const { startNode, serviceKeyEnv } = await import('../services/platform/test/process.js');
    const db = requireEnv('DATABASE_URL');
    const { SERVICE_PUBLIC_KEYS_DIR } = serviceKeyEnv('ledger');
    const keyless = startNode(['services/ledger/dist/main.js'], { DATABASE_URL: db, SERVICE_PUBLIC_KEYS_DIR });
    assert.notEqual(await keyless.exited, 0);
    assert.match(keyless.output(), /SERVICE_PRIVATE_KEY or SERVICE_PRIVATE_KEY_FILE is required/);
    const retired = startNode(['services/ledger/dist/main.js'], {
      DATABASE_URL: db,
      ...serviceKeyEnv('ledger'),
      SERVICE_AUTH_SECRET: 'x'.repeat(48),
    });
    assert.notEqual(await retired.exited, 0);
    assert.match(
      retired.output(),
      /SERVICE_AUTH_SECRET is invalid: no longer read: each component signs with its own key/,
    );
    // Another component's private key: its public key is not the ledger's.
    const foreign = startNode(['services/ledger/dist/main.js'], {
      DATABASE_URL: db,
      ...serviceKeyEnv('ledger'),
      SERVICE_PRIVATE_KEY: serviceKeyEnv('gateway').SERVICE_PRIVATE_KEY,
    });
    assert.notEqual(await foreign.exited, 0);
    assert.match(foreign.output(), /SERVICE_PRIVATE_KEY is not ledger's key/);
  });
});
