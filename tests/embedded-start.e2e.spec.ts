// What `npm start` runs after install and build: the whole product on its embedded default
// (embedded PostgreSQL, in-process bus), with no DATABASE_URL, KAFKA_BROKERS or REDIS_URL.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { freePort } from '@flatlay/platform';
import { startNode } from '../services/platform/test/process.js';
import { embeddedEnv, untilHealthy } from './support/embedded-product.js';

const postgresProcesses = (dataDir: string) => {
  try {
    return execFileSync('pgrep', ['-f', dataDir]).toString().trim();
  } catch {
    return '';
  }
};

describe('embedded default', { timeout: 240_000 }, () => {
  it('starts every service on embedded Postgres, is healthy, keeps data across restarts, and leaves nothing behind on Ctrl-C', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'flatlay-data-'));
    const run = async (extra: Record<string, string> = {}) => {
      const port = await freePort();
      const proc = startNode(
        ['apps/embedded/dist/embedded.js'],
        embeddedEnv(port, dataDir, { LOG_LEVEL: 'info', ...extra }),
      );
      const url = `http://127.0.0.1:${port}`;
      await untilHealthy(url, proc.child, 'healthy');
      assert.equal(proc.child.exitCode, null, proc.output());
      return { proc, url };
    };

    const first = await run({ ADMIN_EMAIL: 'Owner@Example.com', ADMIN_PASSWORD: 'correct horse battery' });
    const health = (await (await fetch(`${first.url}/healthz`)).json()) as { services: Record<string, string> };
    assert.deepEqual(Object.keys(health.services).sort(), ['analytics', 'billing', 'identity', 'image', 'ledger']);
    assert.match(first.proc.output(), /"outcome":"created"/);
    assert.doesNotMatch(first.proc.output(), /correct horse battery/, 'the admin password never reaches the logs');
    // A shopper signs up: the grant shows at once; the session must survive the restart below.
    const registered = await fetch(`${first.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'Shopper@Example.com', password: 'shopper password' }),
    });
    assert.equal(registered.status, 201);
    const session = (await registered.json()) as { access_token: string; user: { id: string; tokenBalance: number } };
    assert.equal(session.user.tokenBalance, 200);
    // One metrics endpoint for the whole process, printed for the person at the terminal: every
    // service's series on it, told apart by their labels.
    const metricsUrl = /Metrics for Prometheus: (\S+)/.exec(first.proc.output())?.[1];
    assert.ok(metricsUrl, `the metrics address is printed:\n${first.proc.output().slice(-2000)}`);
    const exposition = await (await fetch(metricsUrl)).text();
    for (const service of ['identity', 'ledger', 'image', 'billing', 'analytics'])
      assert.match(exposition, new RegExp(`^flatlay_outbox_backlog\\{flatlay_service="${service}"\\} \\d+`, 'm'));
    assert.match(exposition, /^http_server_request_duration_count\{[^}]*http_route="\/api\/auth\/register"[^}]*\} 1$/m);
    assert.match(
      exposition,
      /^rpc_server_call_duration_count\{[^}]*rpc_method="Register",rpc_grpc_status_code="OK"\} 1$/m,
    );
    assert.match(exposition, /^flatlay_image_worker_slots_limit \d+/m);
    assert.match(exposition, /^flatlay_image_generation_queue_depth\{flatlay_job_status="queued"\} 0/m);
    first.proc.child.kill('SIGINT');
    assert.equal(await first.proc.exited, 0, first.proc.output());
    assert.equal(postgresProcesses(dataDir), '', 'embedded Postgres stopped with the product');

    // Second start on the same data: the admin account is updated, not duplicated.
    const second = await run({ ADMIN_EMAIL: 'owner@example.com', ADMIN_PASSWORD: 'another good password' });
    assert.match(second.proc.output(), /"outcome":"updated"/);
    // The signing key is kept in the data folder: the token from before the restart still works.
    const me = await fetch(`${second.url}/api/auth/me`, {
      headers: { authorization: `Bearer ${session.access_token}` },
    });
    assert.equal(me.status, 200);
    const profile = (await me.json()) as { id: string; tokenBalance: number };
    assert.deepEqual([profile.id, profile.tokenBalance], [session.user.id, 200]);
    const admin = await fetch(`${second.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'OWNER@example.com', password: 'another good password' }).toString(),
    });
    assert.equal(admin.status, 200, 'the admin password was updated at start');
    second.proc.child.kill('SIGTERM');
    assert.equal(await second.proc.exited, 0, second.proc.output());
    assert.equal(postgresProcesses(dataDir), '');
    // the data folder holds the cluster and, as root, the Postgres binaries it ran (hard links or copies)
    await rm(dataDir, { recursive: true, force: true });
  });
});
