// The read models are a pure function of the events: a replay into empty tables answers exactly
// what the live tables answer, and delivering everything again changes nothing.
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Pool } from '@flatlay/platform';
import { analyticsEventHandler } from '../src/consumers/analytics-consumer.js';
import { trendPeriods } from '../src/domain/signup-stats.js';
import { userListQuery, type UserListQuery } from '../src/domain/user-search.js';
import {
  allUsers,
  overview,
  paidUserStats,
  searchUsers,
  signupStats,
  signupTrend,
} from '../src/adapters/admin-queries.js';
import { freshAnalyticsDatabase, generatedHistory } from './events.js';

const now = new Date('2025-05-20T12:00:00Z');
// About 800 users: many pages of every search, at half the cost of a larger history on a 2-core CI.
const history = generatedHistory(5_000, now, 7);

/** Every answer the dashboard can ask for, plus the audit and guest purchases tables. */
async function answers(pool: Pool) {
  const page = (q: Parameters<typeof userListQuery>[0]) => searchUsers(pool, userListQuery(q) as UserListQuery, now);
  return {
    users: await allUsers(pool),
    signups: await signupStats(pool, now),
    paid: await paidUserStats(pool, now),
    overview: await overview(pool, now),
    trends: await Promise.all(trendPeriods.map((p) => signupTrend(pool, p, now))),
    searches: await Promise.all([
      page({ q: 'user1' }),
      page({ q: 'plan:unlimited', balance: 'high' }),
      page({ plan: 'none', signup: '30', page: 2, pageSize: 20 }),
      page({ q: 'tokens:100' }),
    ]),
    audit: (await pool.query('SELECT * FROM token_adjustments ORDER BY event_id')).rows,
    guests: (await pool.query('SELECT * FROM anonymous_purchases ORDER BY payment_id')).rows,
  };
}

describe('replaying analytics events', () => {
  let live: Pool;
  let replay: Pool;

  beforeAll(async () => {
    [live, replay] = await Promise.all([freshAnalyticsDatabase(), freshAnalyticsDatabase()]);
    // Live: at-least-once delivery, every tenth event delivered again right away.
    const onLive = analyticsEventHandler(live);
    for (const [i, d] of history.entries()) {
      await onLive(d);
      if (i % 10 === 0) await onLive(d);
    }
    const onReplay = analyticsEventHandler(replay);
    for (const d of history) await onReplay(d);
  }, 600_000);
  afterAll(async () => {
    await live?.end();
    await replay?.end();
  });

  it('gives the same answers from empty read models as the live ones', async () => {
    const a = await answers(live);
    assert.ok(a.users.length > 500, `${a.users.length} users`);
    assert.ok(a.overview.totalPaidUsers > 0 && a.overview.anonymousPurchases > 0);
    assert.deepEqual(await answers(replay), a);
  });

  it('changes nothing when every event is delivered again', async () => {
    const before = await answers(live);
    const again = analyticsEventHandler(live);
    for (const d of history) await again(d);
    assert.deepEqual(await answers(live), before);
  });
});
