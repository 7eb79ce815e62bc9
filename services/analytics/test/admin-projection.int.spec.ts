// The read models on real Postgres, fed through the consumer's handler (inbox included) with a
// fixed "now", so every figure can be stated exactly.
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Pool } from '@flatlay/platform';
import { analyticsEventHandler } from '../src/consumers/analytics-consumer.js';
import { userListQuery, type UserListQuery } from '../src/domain/user-search.js';
import {
  allUsers,
  findUserByEmail,
  overview,
  paidUserStats,
  searchUsers,
  signupStats,
  signupTrend,
} from '../src/adapters/admin-queries.js';
import { ev, freshAnalyticsDatabase } from './events.js';

const now = new Date('2025-05-20T12:00:00Z');
const ago = (days: number, hours = 0) => new Date(now.getTime() - days * 86_400_000 - hours * 3_600_000);
const q = (input: Parameters<typeof userListQuery>[0]) => userListQuery(input) as UserListQuery;

describe('analytics read models', () => {
  let pool: Pool;
  let handle: ReturnType<typeof analyticsEventHandler>;

  beforeAll(async () => {
    pool = await freshAnalyticsDatabase();
    handle = analyticsEventHandler(pool);
    const history = [
      // Ada: studio subscriber, signed up 40 days ago, active yesterday, named.
      ev.registered('ada', 'Ada@Example.com', ago(40)),
      ev.granted('ada', 200, 200, 1, ago(40)),
      ev.profile('ada', 'Ada@Example.com', 'Ada', 'Lovelace', ago(39), 'https://img.example/ada.png'),
      ev.spent('ada', 100, 100, 2, ago(1)),
      ev.generated('ada', ago(1)),
      ev.subscriptionActivated('ada', 'studio', new Date('2025-06-01T00:00:00Z'), ago(0, 3)),
      ev.plan('ada', 'studio', 'active', ago(0, 3)),
      // Bob: free, signed up 2 hours ago, balance 200 with no name (falls back to the local part).
      ev.registered('bob', 'bob.builder@example.com', ago(0, 2)),
      ev.granted('bob', 200, 200, 1, ago(0, 2)),
      // Cleo: unlimited, signed up last month; her ledger events came before her registration.
      ev.granted('cleo', 200, 200, 1, ago(25)),
      ev.registered('cleo', 'cleo@example.com', ago(25)),
      ev.plan('cleo', 'unlimited', 'active', ago(20)),
      // Dan: deducted to 5 tokens by an operator, then deleted; a late event about him changes nothing.
      ev.registered('dan', 'dan@example.com', ago(10)),
      ev.granted('dan', 200, 200, 1, ago(10)),
      ev.adjusted('dan', 'operator-1', 'deduct', 195, 5, 2, ago(5)),
      ev.registered('eve', 'eve@example.com', ago(3)),
      ev.granted('eve', 200, 200, 1, ago(3)),
      ev.adjusted('eve', 'operator-1', 'deduct', 195, 5, 2, ago(2)),
      ev.deleted('dan', ago(4)),
      ev.generated('dan', ago(3)),
      // A guest bought one enhancement today, another 3 days ago; a user bought a token pack.
      ev.payment('', 'anonymous_enhancement', ago(0, 1)),
      ev.payment('', 'anonymous_enhancement', ago(3)),
      ev.payment('bob', 'token_pack', ago(0, 1)),
    ];
    for (const d of history) await handle(d);
    // At-least-once delivery: everything again changes nothing.
    for (const d of history) await handle(d);
  });
  afterAll(() => pool?.end());

  it('answers every field on every row, with the documented defaults', async () => {
    const users = await allUsers(pool);
    assert.deepEqual(
      users.map((u) => u.id),
      ['bob', 'eve', 'cleo', 'ada'],
    );
    const ada = users.find((u) => u.id === 'ada')!;
    assert.deepEqual(ada, {
      id: 'ada',
      email: 'Ada@Example.com',
      name: 'Ada Lovelace',
      picture: 'https://img.example/ada.png',
      token_balance: 100,
      subscription_status: 'active',
      subscription_plan: 'studio',
      subscription_plan_name: 'Studio',
      is_unlimited: false,
      subscription_period_end: '2025-06-01T00:00:00.000Z',
      created_at: ago(40).toISOString(),
      updated_at: ago(0, 3).toISOString(),
      total_images_processed: 1,
      last_active: ago(0, 3).toISOString(),
    });
    const bob = users.find((u) => u.id === 'bob')!;
    assert.equal(bob.name, 'bob.builder');
    assert.equal(bob.subscription_plan, 'none');
    assert.equal(bob.subscription_status, '');
    assert.equal(bob.subscription_period_end, '');
    assert.equal(bob.total_images_processed, 0);
    assert.equal(users.find((u) => u.id === 'cleo')!.is_unlimited, true);
    assert.equal(users.find((u) => u.id === 'eve')!.last_active, ago(3).toISOString());
    for (const u of users) for (const [k, v] of Object.entries(u)) assert.notEqual(v, undefined, `${u.id}.${k}`);
  });

  it('searches free text over email, name, plan, unlimited, balance, dates and status', async () => {
    const ids = async (input: Parameters<typeof userListQuery>[0]) =>
      (await searchUsers(pool, q(input), now)).users.map((u) => u.id).sort();
    assert.deepEqual(await ids({ q: 'ADA@' }), ['ada']);
    assert.deepEqual(await ids({ q: 'lovelace' }), ['ada']);
    assert.deepEqual(await ids({ q: 'studio' }), ['ada']);
    assert.deepEqual(await ids({ q: 'unlimited' }), ['cleo']);
    assert.deepEqual(await ids({ q: '200' }), ['bob', 'cleo']);
    assert.deepEqual(await ids({ q: ago(25).toISOString().slice(0, 10) }), ['cleo']);
    assert.deepEqual(await ids({ q: 'april' }), ['ada', 'cleo']);
    assert.deepEqual(await ids({ q: 'active' }), ['ada', 'cleo']);
    assert.deepEqual(await ids({ q: '%' }), []);
  });

  it('searches one field with field:value, and nothing for an unknown field', async () => {
    const ids = async (text: string) => (await searchUsers(pool, q({ q: text }), now)).users.map((u) => u.id).sort();
    assert.deepEqual(await ids('email:bob'), ['bob']);
    assert.deepEqual(await ids('name:bob'), ['bob']);
    assert.deepEqual(await ids('plan:unlimited'), ['cleo']);
    assert.deepEqual(await ids('plan:none'), ['bob', 'eve']);
    assert.deepEqual(await ids('tokens:5'), ['eve']);
    assert.deepEqual(await ids('balance:200'), ['bob', 'cleo']);
    assert.deepEqual(await ids('status:active'), ['ada', 'cleo']);
    assert.deepEqual(await ids(`created:${ago(40).toISOString().slice(0, 10)}`), ['ada']);
    assert.deepEqual(await ids('date:2025-04'), ['ada', 'cleo']);
    assert.deepEqual(await ids('role:admin'), []);
  });

  it('answers date-text searches by sign-up day exactly as matching the whole date text would', async () => {
    const ids = async (text: string) => (await searchUsers(pool, q({ q: text }), now)).users.map((u) => u.id).sort();
    const like = async (column: string, text: string) =>
      (
        await pool.query<{ id: string }>(
          `SELECT id FROM admin_users WHERE created_at IS NOT NULL AND ${column} LIKE $1 ORDER BY id`,
          [`%${text}%`],
        )
      ).rows.map((r) => r.id);
    for (const text of ['april', 'apr', '2025-04', '4/', '/2025', '1', '20', 'bob', 'ada@', '200']) {
      assert.deepEqual(await ids(`date:${text}`), await like('date_text', text), `date:${text}`);
      assert.deepEqual(await ids(text), await like('search_text', text), text);
    }
  });

  it('filters by plan, signup window and balance band, and pages with the total', async () => {
    const ids = async (input: Parameters<typeof userListQuery>[0]) =>
      (await searchUsers(pool, q(input), now)).users.map((u) => u.id).sort();
    assert.deepEqual(await ids({ plan: 'studio' }), ['ada']);
    assert.deepEqual(await ids({ plan: 'none' }), ['bob', 'eve']);
    assert.deepEqual(await ids({ signup: '7' }), ['bob', 'eve']);
    assert.deepEqual(await ids({ signup: '30' }), ['bob', 'cleo', 'eve']);
    assert.deepEqual(await ids({ balance: 'high' }), ['ada', 'bob', 'cleo']);
    assert.deepEqual(await ids({ balance: 'low' }), ['eve']);
    assert.deepEqual(await ids({ balance: 'zero' }), []);
    const page = await searchUsers(pool, q({ page: 2, pageSize: 3 }), now);
    assert.equal(page.total, 4);
    assert.deepEqual(
      page.users.map((u) => u.id),
      ['ada'],
    );
  });

  it('finds a user by e-mail case-insensitively, and forgets a deleted one', async () => {
    assert.equal((await findUserByEmail(pool, ' ada@example.COM '))?.id, 'ada');
    assert.equal(await findUserByEmail(pool, 'dan@example.com'), undefined);
    const audit = await pool.query(
      'SELECT user_id, user_email, operator_id, direction, amount FROM token_adjustments ORDER BY user_id',
    );
    assert.deepEqual(audit.rows, [
      { user_id: 'dan', user_email: null, operator_id: 'operator-1', direction: 'deduct', amount: 195 },
      { user_id: 'eve', user_email: 'eve@example.com', operator_id: 'operator-1', direction: 'deduct', amount: 195 },
    ]);
  });

  it('counts signups, paid users, plans, guest purchases, growth, retention and conversion', async () => {
    assert.deepEqual(await signupStats(pool, now), { newSignups24h: 1, totalUsers: 4 });
    assert.deepEqual(await paidUserStats(pool, now), { paidUsersLast24h: 2, totalPaidUsers: 3 });
    const o = await overview(pool, now);
    assert.equal(o.signupsThisMonth, 2);
    assert.equal(o.signupsLastMonth, 2);
    assert.equal(o.monthlyGrowthRate, 0);
    assert.deepEqual(o.planDistribution, { lite: 0, studio: 1, bulk: 0, unlimited: 1, none: 2 });
    assert.equal(o.anonymousPurchases, 2);
    assert.equal(o.anonymousPurchases24h, 1);
    // Only Ada signed up more than 30 days ago, and she was active yesterday.
    assert.equal(o.userRetention30d, 100);
    assert.equal(o.conversionRate, 200);
    assert.equal(o.newestEventAt, ago(0, 1).toISOString());
    assert.equal(o.projectionLagSeconds, 3600);
  });

  it('draws the signup trend per period', async () => {
    const week = await signupTrend(pool, '7d', now);
    assert.equal(week.length, 7);
    assert.deepEqual(
      week.map((p) => p.signups),
      [0, 0, 0, 1, 0, 0, 1],
    );
    assert.equal(
      (await signupTrend(pool, '30d', now)).reduce((n, p) => n + p.signups, 0),
      3,
    );
    assert.equal((await signupTrend(pool, '3m', now)).length, 13);
    const year = await signupTrend(pool, '1y', now);
    assert.equal(year.length, 12);
    assert.equal(
      year.reduce((n, p) => n + p.signups, 0),
      4,
    );
    const life = await signupTrend(pool, 'lifetime', now);
    assert.deepEqual(
      life.map((p) => [p.date, p.signups]),
      [
        ['2025-04-01', 2],
        ['2025-05-01', 2],
      ],
    );
  });

  it('records chargebacks for the overview: each dispute once, with its latest status, whatever the order', async () => {
    const before = await overview(pool, now);
    assert.deepEqual([before.paymentDisputes, before.paymentDisputesOpen], [0, 0]);
    const opened = ev.disputed('bob', 'dp_1', 'needs_response', ago(0, 5));
    const lost = ev.disputed('bob', 'dp_1', 'lost', ago(0, 4));
    // The later status first, then the opening delivered twice (a replay): the later status stands.
    for (const d of [lost, opened, opened]) await handle(d);
    await handle(ev.disputed('bob', 'dp_2', 'warning_needs_response', ago(0, 3), 'pay-other'));
    const after = await overview(pool, now);
    assert.deepEqual([after.paymentDisputes, after.paymentDisputesOpen], [2, 1]);
    const { rows } = await pool.query(
      'SELECT dispute_id, status, tokens_taken_back::int AS tokens FROM payment_disputes ORDER BY dispute_id',
    );
    assert.deepEqual(rows, [
      { dispute_id: 'dp_1', status: 'lost', tokens: 1500 },
      { dispute_id: 'dp_2', status: 'warning_needs_response', tokens: 0 },
    ]);
  });
});
