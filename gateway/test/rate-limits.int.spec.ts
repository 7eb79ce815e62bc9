// Sign-in attempt limits through the gateway, on real Redis: the counters are Redis keys (read
// back with ioredis), X-Forwarded-For counts only from a trusted proxy, IPv6 clients count by
// /64, admin login counts one name however it is posted, failures lock out the guesser and not
// the owner, and Google and Supabase sign-in are limited per IP too.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createLogger } from '@flatlay/platform';
import { waitFor } from '../../services/platform/test/support.js';
import { createGatewayApp, listen } from '../src/index.js';
import type { TrustProxy } from '../src/http/client-address.js';
import type { AuthRateLimitOptions } from '../src/http/rate-limit.js';
import { startStack, type ErrorBody, type Reply, type Stack } from './support/stack.js';

type Limits = Omit<AuthRateLimitOptions, 'redis' | 'keyPrefix'>;

interface Gateway {
  /** The Redis key prefix of this gateway's counters. */
  prefix: string;
  post(
    path: string,
    body: { json?: unknown; form?: Record<string, string> },
    headers?: Record<string, string>,
  ): Promise<Reply>;
}

describe('sign-in attempt limits on real Redis', { timeout: 240_000 }, () => {
  let s: Stack;
  const stops: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    s = await startStack('rate-limit-test');
  });
  afterAll(async () => {
    for (const stop of stops) await stop().catch(() => undefined);
    await s?.stop();
  });

  /** A gateway in front of the stack's services, with its own limits, on the stack's Redis. */
  const gateway = async (
    limits: Limits,
    options: { trustProxy?: TrustProxy; prefix?: string } = {},
  ): Promise<Gateway> => {
    const prefix = options.prefix ?? `rl-test-${randomUUID()}`;
    const app = createGatewayApp({
      logger: createLogger('rate-limit-test', 'silent'),
      corsOrigins: [],
      services: s.services.map((x) => ({ name: x.name, address: `127.0.0.1:${x.port}` })),
      rateLimits: { signUpsPerHour: 100_000, ...limits, redis: s.redis, keyPrefix: prefix },
      ...(options.trustProxy !== undefined ? { trustProxy: options.trustProxy } : {}),
    });
    const http = await listen(app, '127.0.0.1', 0);
    stops.push(() => http.stop());
    return {
      prefix,
      async post(path, body, headers = {}) {
        const h: Record<string, string> = { ...headers };
        let payload: string | undefined;
        if (body.json !== undefined) {
          h['content-type'] = 'application/json';
          payload = JSON.stringify(body.json);
        } else if (body.form) {
          h['content-type'] = 'application/x-www-form-urlencoded';
          payload = new URLSearchParams(body.form).toString();
        }
        const res = await fetch(`http://127.0.0.1:${http.port}/api${path}`, {
          method: 'POST',
          headers: h,
          body: payload,
        });
        const text = await res.text();
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        return { status: res.status, body: parsed as ErrorBody, headers: res.headers };
      },
    };
  };

  /** The counter of one limiter key, as stored in Redis (null when absent). */
  const counter = async (g: Gateway, name: string): Promise<number | null> => {
    const value = await s.redis.get(`${g.prefix}:auth:${name}`);
    return value === null ? null : Number(value);
  };
  const keysOf = async (g: Gateway, pattern: string) =>
    (await s.redis.keys(`${g.prefix}:auth:${pattern}`)).map((k) => k.slice(`${g.prefix}:auth:`.length)).sort();
  const from = (ip: string) => ({ 'x-forwarded-for': ip });

  it('keeps its counters in Redis, with the window as expiry, shared by every gateway instance', async () => {
    const limits = { perIp: 1_000, perEmail: 3, windowSeconds: 600 };
    const first = await gateway(limits);
    const second = await gateway(limits, { prefix: first.prefix });
    const user = await s.newUser('redis-counters');
    assert.equal((await first.post('/auth/login', { json: { email: user.email, password: 'wrong 1' } })).status, 401);
    assert.equal((await second.post('/auth/login', { json: { email: user.email, password: 'wrong 2' } })).status, 401);

    assert.equal(await counter(first, 'login:ip:127.0.0.1'), 2);
    assert.equal(await counter(first, `login:failed:email-ip:${user.email}|127.0.0.1`), 2);
    assert.equal(await counter(first, `login:failed:email:${user.email}`), 2);
    const ttl = await s.redis.pttl(`${first.prefix}:auth:login:ip:127.0.0.1`);
    assert.ok(ttl > 0 && ttl <= 600_000, `expiry ${ttl}`);

    // The third failure, on the first instance, reaches the limit both instances share.
    assert.equal((await first.post('/auth/login', { json: { email: user.email, password: 'wrong 3' } })).status, 401);
    const limited = await second.post('/auth/login', { json: { email: user.email, password: user.password } });
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
  });

  it('honours X-Forwarded-For only from a trusted proxy: a spoofed header from an untrusted peer keeps its bucket', async () => {
    // The test client is on loopback, which this gateway does not trust.
    const untrusted = await gateway({ perIp: 3, perEmail: 100, windowSeconds: 600 }, { trustProxy: ['10.0.0.0/8'] });
    for (let i = 0; i < 3; i++) {
      assert.equal(
        (
          await untrusted.post(
            '/auth/login',
            { json: { email: `spoof${i}@example.com`, password: 'x' } },
            from(`198.51.100.${i + 1}`),
          )
        ).status,
        401,
      );
    }
    assert.equal(
      (
        await untrusted.post(
          '/auth/login',
          { json: { email: 'spoof9@example.com', password: 'x' } },
          from('198.51.100.99'),
        )
      ).status,
      429,
    );
    assert.deepEqual(await keysOf(untrusted, 'login:ip:*'), ['login:ip:127.0.0.1']);
    assert.equal(await counter(untrusted, 'login:ip:127.0.0.1'), 4);

    // Behind a trusted proxy (loopback, the default) each forwarded client has its own bucket.
    const trusted = await gateway({ perIp: 3, perEmail: 100, windowSeconds: 600 });
    for (let i = 0; i < 4; i++) {
      assert.equal(
        (
          await trusted.post(
            '/auth/login',
            { json: { email: `fwd${i}@example.com`, password: 'x' } },
            from(`198.51.100.${i + 1}`),
          )
        ).status,
        401,
      );
    }
    assert.deepEqual(await keysOf(trusted, 'login:ip:*'), [
      'login:ip:198.51.100.1',
      'login:ip:198.51.100.2',
      'login:ip:198.51.100.3',
      'login:ip:198.51.100.4',
    ]);

    // A hop count trusts only the proxy's own entry: what the client put before it is ignored.
    const oneHop = await gateway({ perIp: 3, perEmail: 100, windowSeconds: 600 }, { trustProxy: 1 });
    for (const spoof of ['203.0.113.1', '203.0.113.2', '203.0.113.3', '203.0.113.4']) {
      await oneHop.post(
        '/auth/login',
        { json: { email: 'hop@example.com', password: 'x' } },
        from(`${spoof}, 198.51.100.7`),
      );
    }
    assert.deepEqual(await keysOf(oneHop, 'login:ip:*'), ['login:ip:198.51.100.7']);
    assert.equal(
      (await oneHop.post('/auth/login', { json: { email: 'hop@example.com', password: 'x' } }, from('198.51.100.7')))
        .status,
      429,
    );
  });

  it('counts an IPv6 client by its /64, and an IPv4-mapped address as IPv4', async () => {
    const g = await gateway({ perIp: 3, perEmail: 100, windowSeconds: 600 });
    for (const ip of ['2001:db8:7:8::1', '2001:db8:7:8:ffff::2', '2001:db8:7:8:1:2:3:4']) {
      assert.equal(
        (await g.post('/auth/login', { json: { email: 'v6@example.com', password: 'x' } }, from(ip))).status,
        401,
        ip,
      );
    }
    assert.equal(
      (await g.post('/auth/login', { json: { email: 'v6@example.com', password: 'x' } }, from('2001:db8:7:8::99')))
        .status,
      429,
    );
    // The neighbouring /64 is another subscriber.
    assert.equal(
      (await g.post('/auth/login', { json: { email: 'v6@example.com', password: 'x' } }, from('2001:db8:7:9::1')))
        .status,
      401,
    );
    await g.post('/auth/login', { json: { email: 'v4@example.com', password: 'x' } }, from('::ffff:198.51.100.23'));
    await g.post('/auth/login', { json: { email: 'v4@example.com', password: 'x' } }, from('198.51.100.23'));
    assert.deepEqual(await keysOf(g, 'login:ip:*'), [
      'login:ip:198.51.100.23',
      'login:ip:2001:db8:7:8::/64',
      'login:ip:2001:db8:7:9::/64',
    ]);
    assert.equal(await counter(g, 'login:ip:198.51.100.23'), 2);
  });

  it('admin login: `username=` and `email=` count against one name', async () => {
    const g = await gateway({ perIp: 1_000, perEmail: 3, windowSeconds: 600 });
    const name = s.admin.email.toLowerCase();
    assert.equal(
      (await g.post('/admin/login', { form: { username: s.admin.email, password: 'wrong 1' } })).status,
      401,
    );
    assert.equal((await g.post('/admin/login', { form: { email: s.admin.email, password: 'wrong 2' } })).status, 401);
    assert.equal(
      (await g.post('/admin/login', { form: { email: name.toUpperCase(), password: 'wrong 3' } })).status,
      401,
    );
    assert.equal(await counter(g, `admin-login:failed:email-ip:${name}|127.0.0.1`), 3);
    const right: Array<Record<string, string>> = [
      { email: s.admin.email, password: s.admin.password },
      { username: s.admin.email, password: s.admin.password },
    ];
    for (const form of right) {
      const res = await g.post('/admin/login', { form });
      assert.equal(res.status, 429, Object.keys(form).join());
      assert.match(res.body.message, /^Too many attempts\. Please try again in \d+ seconds\.$/);
    }
  });

  it("a guesser's failures lock out the guesser, not the owner; successes consume nothing", async () => {
    const g = await gateway({ perIp: 1_000, perEmail: 3, perEmailAnyIp: 6, windowSeconds: 600 });
    const owner = await s.newUser('owner');
    const attacker = from('198.51.100.66');
    const home = from('203.0.113.10');
    for (let i = 0; i < 3; i++)
      assert.equal(
        (await g.post('/auth/login', { json: { email: owner.email, password: `guess ${i}` } }, attacker)).status,
        401,
      );
    // The guesser is stopped, even with the right password...
    assert.equal(
      (await g.post('/auth/login', { json: { email: owner.email, password: owner.password } }, attacker)).status,
      429,
    );
    // ...the owner is not, and signing in again and again uses up nothing.
    for (let i = 0; i < 5; i++)
      assert.equal(
        (await g.post('/auth/login', { json: { email: owner.email, password: owner.password } }, home)).status,
        200,
      );
    assert.equal(await counter(g, `login:failed:email-ip:${owner.email}|203.0.113.10`), null);
    assert.equal(await counter(g, `login:failed:email:${owner.email}`), 3);

    // Guessing spread over many addresses meets the e-mail's overall ceiling (6 failures).
    for (const ip of ['198.51.100.67', '198.51.100.68', '198.51.100.69']) {
      assert.equal(
        (await g.post('/auth/login', { json: { email: owner.email, password: 'spread' } }, from(ip))).status,
        401,
      );
    }
    assert.equal(
      (await g.post('/auth/login', { json: { email: owner.email, password: owner.password } }, from('192.0.2.200')))
        .status,
      429,
    );
  });

  it("a successful sign-in clears that client's earlier failures for the address", async () => {
    const g = await gateway({ perIp: 1_000, perEmail: 3, windowSeconds: 600 });
    const user = await s.newUser('typos');
    const key = `login:failed:email-ip:${user.email}|127.0.0.1`;
    for (let i = 0; i < 2; i++)
      assert.equal((await g.post('/auth/login', { json: { email: user.email, password: `typo ${i}` } })).status, 401);
    assert.equal((await g.post('/auth/login', { json: { email: user.email, password: user.password } })).status, 200);
    await waitFor(async () => (await counter(g, key)) === null, 'the failures of this client are cleared');
    for (let i = 0; i < 2; i++)
      assert.equal(
        (await g.post('/auth/login', { json: { email: user.email, password: `typo again ${i}` } })).status,
        401,
      );
    assert.equal((await g.post('/auth/login', { json: { email: user.email, password: user.password } })).status, 200);
  });

  it('keeps counting every attempt per IP, successful or not', async () => {
    const g = await gateway({ perIp: 2, perEmail: 100, windowSeconds: 600 });
    const user = await s.newUser('per-ip');
    for (let i = 0; i < 2; i++)
      assert.equal(
        (await g.post('/auth/login', { json: { email: user.email, password: user.password } }, from('192.0.2.7')))
          .status,
        200,
      );
    assert.equal(
      (await g.post('/auth/login', { json: { email: user.email, password: user.password } }, from('192.0.2.7'))).status,
      429,
    );
  });

  it('limits Google and Supabase sign-in per IP (each new identity is a new account with free tokens)', async () => {
    const g = await gateway({ perIp: 2, perEmail: 100, windowSeconds: 600 });
    for (let i = 0; i < 2; i++) {
      const idToken = await s.googleIdToken({
        sub: randomUUID(),
        email: `g.${randomUUID()}@gmail.com`,
        email_verified: true,
      });
      assert.equal((await g.post('/auth/google', { json: { idToken } }, from('192.0.2.50'))).status, 200);
    }
    const third = await g.post(
      '/auth/google',
      {
        json: {
          idToken: await s.googleIdToken({
            sub: randomUUID(),
            email: `g.${randomUUID()}@gmail.com`,
            email_verified: true,
          }),
        },
      },
      from('192.0.2.50'),
    );
    assert.equal(third.status, 429);
    assert.ok(Number(third.headers.get('retry-after')) > 0);

    for (let i = 0; i < 2; i++) {
      const token = await s.supabaseToken({ sub: randomUUID(), email: `s.${randomUUID()}@example.com` });
      assert.equal(
        (await g.post('/auth/supabase', { json: {} }, { ...from('192.0.2.51'), authorization: `Bearer ${token}` }))
          .status,
        200,
      );
    }
    const token = await s.supabaseToken({ sub: randomUUID(), email: `s.${randomUUID()}@example.com` });
    assert.equal(
      (await g.post('/auth/supabase', { json: {} }, { ...from('192.0.2.51'), authorization: `Bearer ${token}` }))
        .status,
      429,
    );
    assert.equal(await counter(g, 'google:ip:192.0.2.50'), 3);
  });
});
