// The gateway cache (ADR 0510) with two gateway instances on one Kafka bus, in front of the same
// identity, ledger and analytics services on real Postgres. What must survive any cache: a
// logout or a deletion is refused at once on the instance that handled it and, soon, on the
// other; a balance is never older than the caller's own write there, and converges everywhere
// for writes made elsewhere. "Soon" is polled here, never timed: the latencies are measured by
// `npm run bench:api`.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createLogger } from '@flatlay/platform';
import { testKafkaBus, type TestKafkaBus, waitFor } from '../../services/platform/test/support.js';
import { createGatewayApp, listen, startGatewayCache, type GatewayCache } from '../src/index.js';
import { call } from '@flatlay/platform';
import { startStack, type SessionBody, type Stack, type TokenBody, type UserBody } from './support/stack.js';

interface Gateway {
  base: string;
  cache: GatewayCache;
  bus: TestKafkaBus;
  stop(): Promise<void>;
}

async function startGateway(stack: Stack, name: string): Promise<Gateway> {
  const logger = createLogger(name, 'silent');
  // On the stack's topics (its namespace, which the stack deletes when it stops).
  const bus = testKafkaBus(name, { prefix: stack.bus.prefix, keep: true });
  const cache = startGatewayCache(bus, logger, { ttlMs: 60_000 });
  const app = createGatewayApp({
    logger,
    corsOrigins: [],
    services: stack.services.map((s) => ({ name: s.name, address: `127.0.0.1:${s.port}` })),
    rateLimits: {
      perIp: 10_000,
      perEmail: 1_000,
      windowSeconds: 600,
      signUpsPerHour: 10_000,
      keyPrefix: `cache-${randomUUID()}`,
    },
    cache,
  });
  const http = await listen(app, '127.0.0.1', 0);
  return {
    base: `http://127.0.0.1:${http.port}`,
    cache,
    bus,
    stop: async () => {
      await http.stop();
      await cache.close();
      await bus.close();
    },
  };
}

async function get<B>(base: string, path: string, token: string): Promise<{ status: number; body: B }> {
  const res = await fetch(`${base}/api${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as B };
}

async function send<B>(
  base: string,
  method: string,
  path: string,
  { token, json }: { token?: string; json?: unknown },
): Promise<{ status: number; body: B }> {
  const res = await fetch(`${base}/api${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(json ? { 'content-type': 'application/json' } : {}),
    },
    body: json ? JSON.stringify(json) : undefined,
  });
  return { status: res.status, body: (await res.json()) as B };
}

describe('gateway cache: two gateways on one bus', { timeout: 180_000 }, () => {
  let stack: Stack;
  let a: Gateway;
  let b: Gateway;
  let admin: string;

  /** A fresh user signed in on gateway A, whose token both gateways have verified and remembered. */
  const cachedUser = async (prefix: string) => {
    const email = `${prefix}.${randomUUID().slice(0, 8)}@example.com`;
    const reg = await send<SessionBody>(a.base, 'POST', '/auth/register', {
      json: { email, password: 'correct horse battery' },
    });
    assert.equal(reg.status, 201, JSON.stringify(reg.body));
    const token = reg.body.access_token;
    for (const g of [a, b]) {
      assert.equal((await get(g.base, '/auth/me', token)).status, 200);
      assert.equal((await get(g.base, '/tokens/balance', token)).status, 200);
    }
    return { email, token, id: reg.body.user.id };
  };

  /** Admin adjustments find the user through analytics, which learns of it from events. */
  const projected = (email: string) =>
    waitFor(
      async () =>
        (await get<{ users: unknown[] }>(a.base, `/admin/users?q=${encodeURIComponent(`email:${email}`)}`, admin)).body
          .users.length === 1,
      `analytics projects ${email}`,
      60_000,
    );

  beforeAll(async () => {
    stack = await startStack('gateway-cache', undefined, { analytics: true });
    [a, b] = await Promise.all([startGateway(stack, 'gateway-a'), startGateway(stack, 'gateway-b')]);
    assert.equal(await a.cache.ready(), true, 'gateway A hears its invalidations');
    assert.equal(await b.cache.ready(), true, 'gateway B hears its invalidations');
    const res = await fetch(`${a.base}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: stack.admin.email, password: stack.admin.password }).toString(),
    });
    assert.equal(res.status, 200);
    admin = ((await res.json()) as TokenBody).access_token;
  }, 240_000);
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await stack?.stop();
  });

  it('remembers a verified token: a second request on each gateway is still answered for the same user', async () => {
    const user = await cachedUser('cache-hit');
    for (const g of [a, b]) {
      const me = await get<UserBody>(g.base, '/auth/me', user.token);
      assert.equal(me.status, 200);
      assert.equal(me.body.id, user.id);
      assert.ok(g.cache.facts.session(user.token), 'the token is remembered');
    }
  });

  it('refuses a logged-out token at once on the gateway that handled the logout, and soon on the other', async () => {
    const user = await cachedUser('cache-logout');
    const out = await send(a.base, 'POST', '/auth/logout', { token: user.token });
    assert.equal(out.status, 200);
    // At once: the very next request on A.
    assert.equal((await get(a.base, '/auth/me', user.token)).status, 401);
    assert.equal((await get(a.base, '/tokens/balance', user.token)).status, 401);
    await waitFor(async () => (await get(b.base, '/auth/me', user.token)).status === 401, 'B refuses the token');
    assert.equal((await get(b.base, '/tokens/balance', user.token)).status, 401);
  });

  it("refuses a deleted user's token at once on the deleting gateway, and soon on the other", async () => {
    const user = await cachedUser('cache-deleted');
    const del = await send(a.base, 'DELETE', `/admin/user/delete?email=${encodeURIComponent(user.email)}`, {
      token: admin,
    });
    assert.equal(del.status, 200, JSON.stringify(del.body));
    assert.equal((await get(a.base, '/auth/me', user.token)).status, 401);
    await waitFor(async () => (await get(b.base, '/auth/me', user.token)).status === 401, 'B refuses the token');
    assert.equal((await get(b.base, '/tokens/balance', user.token)).status, 401);
  });

  it('refuses a token whose sessions identity ended without any gateway (its event reaches both)', async () => {
    // A deletion straight at identity, as another service or an operator's tool would do it.
    const user = await cachedUser('cache-direct');
    await call(stack.identityClient, stack.identityClient.deleteUser, { userId: user.id, email: '' });
    for (const g of [a, b])
      await waitFor(async () => (await get(g.base, '/auth/me', user.token)).status === 401, 'the token is refused');
  });

  it("shows the caller's own adjustment at once where it was made, and soon on the other gateway", async () => {
    const user = await cachedUser('cache-ryw');
    await projected(user.email);
    const before = (await get<{ balance: number }>(a.base, '/tokens/balance', user.token)).body.balance;
    const adjust = await send<{ token_balance: number }>(a.base, 'POST', '/admin/tokens/adjust', {
      token: admin,
      json: { user_email: user.email, tokens: 7, action: 'add' },
    });
    assert.equal(adjust.status, 200, JSON.stringify(adjust.body));
    assert.equal(adjust.body.token_balance, before + 7);
    // Read-your-writes where the write was made: the balance and the profile's tokenBalance.
    assert.equal((await get<{ balance: number }>(a.base, '/tokens/balance', user.token)).body.balance, before + 7);
    assert.equal((await get<UserBody>(a.base, '/auth/me', user.token)).body.tokenBalance, before + 7);
    await waitFor(
      async () => (await get<{ balance: number }>(b.base, '/tokens/balance', user.token)).body.balance === before + 7,
      'B shows the adjusted balance',
    );
  });

  it('converges on every gateway for a write made by another writer (the ledger, straight)', async () => {
    const user = await cachedUser('cache-other');
    const before = (await get<{ balance: number }>(a.base, '/tokens/balance', user.token)).body.balance;
    await call(stack.ledgerClient, stack.ledgerClient.credit, {
      userId: user.id,
      paymentId: `pay-${randomUUID()}`,
      packId: 'starter',
      packName: 'Starter',
      tokens: 11,
    });
    for (const g of [a, b])
      await waitFor(
        async () =>
          (await get<{ balance: number }>(g.base, '/tokens/balance', user.token)).body.balance === before + 11,
        'the credit shows',
      );
  });
});
