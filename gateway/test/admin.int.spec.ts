// The admin API end to end: gateway, identity, ledger and analytics on real Postgres and Kafka.
// Other test runs share the bus, so figures are checked for what this run's users add, not totals.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { events, eventTypes, topics } from '@flatlay/proto';
import { outboxMessage, type Pool } from '@flatlay/platform';
import { waitFor } from '../../services/platform/test/support.js';
import type { paths } from '../src/api/openapi-types.js';
import { startStack, type Stack, type TokenBody } from './support/stack.js';

type Json<P extends keyof paths, M extends 'get' | 'post' | 'delete'> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer B } } };
}
  ? B
  : never;
type UserList = Json<'/admin/users', 'get'>;
type AdminUser = Extract<UserList, unknown[]>[number];
type Page = Exclude<UserList, unknown[]>;

const ADMIN_ROUTES: Array<[string, string, unknown?]> = [
  ['GET', '/admin/users'],
  ['GET', '/admin/users?q=a'],
  ['GET', '/admin/stats/signups'],
  ['GET', '/admin/stats/paid-users'],
  ['GET', '/admin/stats/trend?period=7d'],
  ['GET', '/admin/stats/overview'],
  ['POST', '/admin/tokens/adjust', { user_email: 'a@example.com', tokens: 1, action: 'add' }],
  ['DELETE', '/admin/user/delete?email=a@example.com'],
  ['POST', '/admin/users/unlimited', { user_email: 'a@example.com', granted: true }],
];

describe('the admin API', () => {
  let stack: Stack;
  let admin: string;
  let user: Awaited<ReturnType<Stack['newUser']>>;
  const pool = (name: string): Pool => stack.services.find((s) => s.name === name)!.context.pool;

  const page = async (query: string) => {
    const res = await stack.request<Page>('GET', `/admin/users?${query}`, { token: admin });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  const projected = async (email: string, check: (u: AdminUser) => boolean = () => true) => {
    let found: AdminUser | undefined;
    await waitFor(
      async () => {
        found = (await page(`q=${encodeURIComponent(`email:${email}`)}`)).users[0];
        return Boolean(found && check(found));
      },
      `analytics projects ${email}`,
      60_000,
    );
    return found!;
  };

  beforeAll(async () => {
    stack = await startStack('admin-api', undefined, { analytics: true, billing: {} });
    const login = await stack.request<TokenBody>('POST', '/admin/login', {
      form: { username: stack.admin.email, password: stack.admin.password },
    });
    assert.equal(login.status, 200);
    admin = login.body.access_token;
    user = await stack.newUser('admin-api');
  }, 180_000);
  afterAll(() => stack?.stop());

  it('refuses every admin operation without a token (401) and with a user token (403)', async () => {
    for (const [method, path, json] of ADMIN_ROUTES) {
      const none = await stack.request(method, path, { json });
      assert.equal(none.status, 401, `${method} ${path}`);
      const asUser = await stack.request(method, path, { json, token: user.token });
      assert.equal(asUser.status, 403, `${method} ${path}`);
      assert.equal(asUser.body.message, 'Admin authentication required');
    }
  });

  it('lists a new user with every field, in the bare list and in a search page', async () => {
    const u = await projected(user.email, (r) => r.token_balance === 200);
    assert.equal(u.id, user.id);
    assert.equal(u.name, user.email.split('@')[0]);
    assert.equal(u.subscription_plan, 'none');
    assert.equal(u.is_unlimited, false);
    assert.equal(u.total_images_processed, 0);
    assert.ok(Date.parse(u.created_at) > Date.now() - 600_000);
    const all = await stack.request<AdminUser[]>('GET', '/admin/users', { token: admin });
    assert.equal(all.status, 200);
    assert.ok(Array.isArray(all.body));
    assert.deepEqual(
      all.body.find((r) => r.id === user.id),
      u,
    );
    const p = await page(`q=${encodeURIComponent(user.email.toUpperCase())}&plan=none&signup=7&balance=high`);
    assert.deepEqual(p, { users: [u], total: 1, page: 1, page_size: 50, total_exact: true });
    assert.equal((await page(`q=${encodeURIComponent(`email:${user.email}`)}&balance=zero`)).total, 0);
    assert.equal((await page('q=nosuchfield:x')).total, 0);
  });

  it('refuses bad filters with 400', async () => {
    for (const query of ['plan=gold', 'signup=14', 'balance=lots', 'page=0', 'page_size=100000'])
      assert.equal((await stack.request('GET', `/admin/users?${query}`, { token: admin })).status, 400, query);
    assert.equal((await stack.request('GET', '/admin/stats/trend?period=2w', { token: admin })).status, 400);
  });

  it('answers the signup, paid-user, trend and overview figures', async () => {
    await projected(user.email);
    const signups = await stack.request<Json<'/admin/stats/signups', 'get'>>('GET', '/admin/stats/signups', {
      token: admin,
    });
    assert.equal(signups.status, 200);
    assert.ok(signups.body.new_signups_24h >= 1);
    const paid = await stack.request<Json<'/admin/stats/paid-users', 'get'>>('GET', '/admin/stats/paid-users', {
      token: admin,
    });
    assert.equal(paid.status, 200);
    assert.ok(paid.body.total_paid_users >= paid.body.paid_users_last_24h);
    for (const [period, points] of [
      ['7d', 7],
      ['30d', 30],
      ['3m', 13],
      ['1y', 12],
    ] as const) {
      const t = await stack.request<Json<'/admin/stats/trend', 'get'>>('GET', `/admin/stats/trend?period=${period}`, {
        token: admin,
      });
      assert.equal(t.status, 200);
      assert.equal(t.body.points.length, points, period);
      assert.ok(t.body.points[points - 1]!.signups >= 1, period);
    }
    const life = await stack.request<Json<'/admin/stats/trend', 'get'>>('GET', '/admin/stats/trend?period=lifetime', {
      token: admin,
    });
    assert.ok(life.body.points.length >= 1);
    const o = await stack.request<Json<'/admin/stats/overview', 'get'>>('GET', '/admin/stats/overview', {
      token: admin,
    });
    assert.equal(o.status, 200);
    assert.equal(o.body.gpu_pool, 'not in a cluster');
    assert.equal(o.body.gpu_pool_detail.in_cluster, false);
    assert.ok(o.body.projection_lag_seconds >= 0);
    assert.ok(o.body.total_users >= 1);
    const d = o.body.plan_distribution;
    assert.equal(d.lite + d.studio + d.bulk + d.unlimited + d.none, o.body.total_users);
  });

  it('adds and deducts tokens through the ledger, flooring at 0, and audits who, whom and how much', async () => {
    const target = await stack.newUser('adjust');
    await projected(target.email, (r) => r.token_balance === 200);
    const add = await stack.request<Json<'/admin/tokens/adjust', 'post'>>('POST', '/admin/tokens/adjust', {
      token: admin,
      json: { user_email: target.email.toUpperCase(), tokens: 50, action: 'add' },
    });
    assert.equal(add.status, 200, JSON.stringify(add.body));
    assert.equal(add.body.token_balance, 250);
    assert.match(add.body.message, /^Added 50 tokens to /);
    const deduct = await stack.request<Json<'/admin/tokens/adjust', 'post'>>('POST', '/admin/tokens/adjust', {
      token: admin,
      json: { user_email: target.email, tokens: 1000, action: 'deduct' },
    });
    assert.equal(deduct.status, 200);
    assert.deepEqual([deduct.body.applied, deduct.body.token_balance], [250, 0]);
    assert.equal((await projected(target.email, (r) => r.token_balance === 0)).token_balance, 0);
    const { rows } = await pool('analytics').query(
      'SELECT operator_id, user_email, direction, amount FROM token_adjustments WHERE user_id = $1 ORDER BY occurred_at',
      [target.id],
    );
    const adminId = (await stack.request<{ id: string }>('GET', '/auth/me', { token: admin })).body.id;
    assert.deepEqual(rows, [
      { operator_id: adminId, user_email: target.email, direction: 'add', amount: 50 },
      { operator_id: adminId, user_email: target.email, direction: 'deduct', amount: 250 },
    ]);
  });

  it('refuses a bad amount or action (400), an unknown e-mail (404) and an unlimited user (409)', async () => {
    for (const body of [
      { tokens: 1.5, action: 'add' },
      { tokens: 0, action: 'add' },
      { tokens: -3, action: 'deduct' },
      { tokens: '10', action: 'add' },
      { tokens: 10, action: 'steal' },
    ]) {
      const res = await stack.request('POST', '/admin/tokens/adjust', {
        token: admin,
        json: { user_email: user.email, ...body },
      });
      assert.equal(res.status, 400, JSON.stringify(body));
    }
    const unknown = await stack.request('POST', '/admin/tokens/adjust', {
      token: admin,
      json: { user_email: `nobody.${randomUUID().slice(0, 8)}@example.com`, tokens: 5, action: 'add' },
    });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.message, 'User not found');

    // Billing activates an unlimited plan; identity follows it and announces the plan change.
    const vip = await stack.newUser('unlimited');
    const now = new Date();
    const m = outboxMessage(
      topics.billingSubscription,
      eventTypes.SubscriptionActivated,
      events.SubscriptionActivated,
      {
        subscriptionId: `sub_${randomUUID()}`,
        userId: vip.id,
        plan: 'unlimited',
        billingPeriod: 'monthly',
        periodStart: now,
        periodEnd: new Date(now.getTime() + 30 * 86_400_000),
      },
      { aggregateId: vip.id, occurredAt: now },
    );
    await stack.bus.publish([{ topic: m.topic, key: m.key, value: Buffer.from(m.envelope), headers: {} }]);
    const u = await projected(vip.email, (r) => r.is_unlimited);
    assert.equal(u.subscription_plan_name, 'Unlimited');
    assert.ok(u.subscription_period_end);
    const refused = await stack.request('POST', '/admin/tokens/adjust', {
      token: admin,
      json: { user_email: vip.email, tokens: 5, action: 'add' },
    });
    assert.equal(refused.status, 409);
    assert.match(refused.body.message, /unlimited plan/);
  });

  it('grants and revokes the unlimited plan through billing: the profile, the ledger and the list follow; refusals are 404/409', async () => {
    const guest = await stack.newUser('comp');
    await projected(guest.email);
    const grant = (granted: boolean, email = guest.email) =>
      stack.request<{ message: string }>('POST', '/admin/users/unlimited', {
        token: admin,
        json: { user_email: email, granted },
      });
    const me = async () =>
      (
        await stack.request<{ isUnlimited: boolean; subscriptionPlan: string }>('GET', '/auth/me', {
          token: guest.token,
        })
      ).body;
    // A user cannot grant it to themself (the role is checked on the server).
    const self = await stack.request('POST', '/admin/users/unlimited', {
      token: guest.token,
      json: { user_email: guest.email, granted: true },
    });
    assert.equal(self.status, 403);

    const granted = await grant(true);
    assert.equal(granted.status, 200, JSON.stringify(granted.body));
    assert.equal(granted.body.message, `${guest.email} now has the unlimited plan`);
    await waitFor(async () => (await me()).isUnlimited, 'identity makes the profile unlimited', 60_000);
    assert.equal((await me()).subscriptionPlan, 'unlimited');
    await projected(guest.email, (u) => u.is_unlimited);
    // Billing recorded it as a subscription of its own, with no payment.
    const { rows } = await pool('billing').query('SELECT plan, status FROM subscriptions WHERE user_id = $1', [
      guest.id,
    ]);
    assert.deepEqual(rows, [{ plan: 'unlimited', status: 'active' }]);
    const twice = await grant(true);
    assert.equal(twice.status, 409);
    assert.match(twice.body.message, /already has the unlimited plan/);
    // The user cannot cancel a plan nobody paid for (a business refusal, not 401/403).
    const cancel = await stack.request('POST', '/subscription/cancel', { token: guest.token });
    assert.equal(cancel.status, 409, JSON.stringify(cancel.body));

    const revoked = await grant(false);
    assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
    await waitFor(async () => !(await me()).isUnlimited, 'identity ends the unlimited plan', 60_000);
    await projected(guest.email, (u) => !u.is_unlimited && u.subscription_plan === 'none');
    const again = await grant(false);
    assert.equal(again.status, 404);
    assert.equal((await grant(true, `nobody.${randomUUID().slice(0, 8)}@example.com`)).status, 404);
    // Granted again after a revoke: the same subscription is active once more.
    assert.equal((await grant(true)).status, 200);
    await waitFor(async () => (await me()).isUnlimited, 'granted again', 60_000);
  });

  it('deletes a user for real: no analytics, identity or ledger table holds the e-mail afterwards', async () => {
    const gone = await stack.newUser('delete-me');
    await projected(gone.email, (r) => r.token_balance === 200);
    await stack.request('POST', '/admin/tokens/adjust', {
      token: admin,
      json: { user_email: gone.email, tokens: 5, action: 'add' },
    });
    await waitFor(
      async () =>
        (await pool('analytics').query('SELECT 1 FROM token_adjustments WHERE user_id = $1', [gone.id])).rowCount === 1,
      'the adjustment is audited',
    );
    const res = await stack.request<{ message: string }>('DELETE', `/admin/user/delete?email=${gone.email}`, {
      token: admin,
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.message, 'User account deleted successfully');
    await waitFor(
      async () =>
        (await pool('analytics').query('SELECT 1 FROM deleted_users WHERE id = $1', [gone.id])).rowCount === 1,
      'analytics hears of the deletion',
      60_000,
    );
    // The deletion's confirmation e-mail holds the address until the mail server took it (ADR 0402).
    await waitFor(
      async () =>
        (await pool('identity').query('SELECT 1 FROM mail_outbox WHERE recipient = $1', [gone.email])).rowCount === 0,
      'the confirmation e-mail sent',
      60_000,
    );
    // The ledger keys accounts by user id only (its AccountClosed keeps the anonymous financial entries).
    assert.equal((await page(`q=${encodeURIComponent(`email:${gone.email}`)}`)).total, 0);
    for (const name of ['analytics', 'identity', 'ledger'])
      assert.deepEqual(await columnsHolding(pool(name), gone.email), [], `${name} still holds the e-mail`);
    // The old session of the deleted user is refused.
    assert.equal((await stack.request('GET', '/auth/me', { token: gone.token })).status, 401);
  });

  it('answers 404 for an unknown e-mail and 409 for an administrator, the caller included', async () => {
    const unknown = await stack.request(
      'DELETE',
      `/admin/user/delete?email=nobody.${randomUUID().slice(0, 8)}@example.com`,
      {
        token: admin,
      },
    );
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.message, 'User not found');
    const self = await stack.request('DELETE', `/admin/user/delete?email=${encodeURIComponent(stack.admin.email)}`, {
      token: admin,
    });
    assert.equal(self.status, 409);
    assert.equal((await stack.request('GET', '/admin/stats/signups', { token: admin })).status, 200);
  });
});

/** Every text, JSON or binary column of every table in which the value occurs (case-insensitively for text). */
async function columnsHolding(pool: Pool, value: string): Promise<string[]> {
  const { rows } = await pool.query<{ table_name: string; column_name: string; data_type: string }>(
    `SELECT table_name, column_name, data_type FROM information_schema.columns
     WHERE table_schema = 'public' AND data_type IN ('text', 'character varying', 'jsonb', 'json', 'bytea')`,
  );
  const found: string[] = [];
  for (const c of rows) {
    const test =
      c.data_type === 'bytea'
        ? `position(convert_to($1, 'UTF8') in "${c.column_name}") > 0`
        : `position(lower($1) in lower("${c.column_name}"::text)) > 0`;
    const hit = await pool.query(`SELECT 1 FROM "${c.table_name}" WHERE ${test} LIMIT 1`, [value.toLowerCase()]);
    if (hit.rowCount) found.push(`${c.table_name}.${c.column_name}`);
  }
  return found;
}
