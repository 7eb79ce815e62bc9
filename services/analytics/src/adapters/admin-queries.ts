// The dashboard's questions, asked of the read models when they come: nothing is cached, so every
// answer is as fresh as the projection.
import { withTransaction, type Pool, type Queryable } from '@flatlay/platform';
import type { UserListQuery, UserSearch } from '../domain/user-search.js';
import { isUnlimited, planName } from '../domain/user-record.js';
import {
  conversionRate,
  fillBuckets,
  monthWindows,
  monthlyGrowthRate,
  retentionRate,
  trendBuckets,
  type TrendPeriod,
} from '../domain/signup-stats.js';

const DAY = 86_400_000;

export interface AdminUserRecord {
  id: string;
  email: string;
  name: string;
  picture: string;
  token_balance: number;
  subscription_status: string;
  subscription_plan: string;
  subscription_plan_name: string;
  is_unlimited: boolean;
  subscription_period_end: string;
  created_at: string;
  updated_at: string;
  total_images_processed: number;
  last_active: string;
}

interface Row {
  id: string;
  email: string;
  name: string;
  picture: string;
  token_balance: string;
  subscription_status: string;
  subscription_plan: string;
  subscription_period_end: Date | null;
  created_at: Date;
  updated_at: Date;
  total_images_processed: string;
  last_active: Date | null;
}

const COLUMNS = `id, email, name, picture, token_balance, subscription_status, subscription_plan,
  subscription_period_end, created_at, updated_at, total_images_processed, last_active`;

/** Every field on every row: defaults stand in for what no event has said yet. */
function record(r: Row): AdminUserRecord {
  return {
    id: r.id,
    email: r.email,
    name: r.name,
    picture: r.picture,
    token_balance: Number(r.token_balance),
    subscription_status: r.subscription_status,
    subscription_plan: r.subscription_plan,
    subscription_plan_name: planName(r.subscription_plan),
    is_unlimited: isUnlimited(r.subscription_plan, r.subscription_status),
    subscription_period_end: r.subscription_period_end?.toISOString() ?? '',
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
    total_images_processed: Number(r.total_images_processed),
    last_active: r.last_active?.toISOString() ?? 'Unknown',
  };
}

/** LIKE pattern matching the text anywhere, with the text's own wildcards taken literally. */
const contains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The WHERE clause of a search and filters, with its parameters from `$first`. */
export function userWhere(q: Omit<UserListQuery, 'page' | 'pageSize'>, now: Date): { sql: string; values: unknown[] } {
  const where = ['created_at IS NOT NULL'];
  const values: unknown[] = [];
  const p = (v: unknown) => {
    values.push(v);
    return `$${values.length}`;
  };
  where.push(searchSql(q.search, p));
  if (q.plan !== 'all') where.push(`subscription_plan = ${p(q.plan)}`);
  if (q.signupDays) where.push(`created_at >= ${p(new Date(now.getTime() - q.signupDays * DAY))}`);
  if (q.balance.min !== undefined) where.push(`token_balance >= ${p(q.balance.min)}`);
  if (q.balance.max !== undefined) where.push(`token_balance <= ${p(q.balance.max)}`);
  return { sql: where.filter((w) => w !== 'TRUE').join(' AND '), values };
}

function searchSql(s: UserSearch, p: (v: unknown) => string): string {
  switch (s.kind) {
    case 'all':
      return 'TRUE';
    case 'nothing':
      return 'FALSE';
    case 'text':
      return `search_text LIKE ${p(contains(s.text))}`;
    case 'email':
      return `email ILIKE ${p(contains(s.text))}`;
    case 'name':
      return `lower(name) LIKE ${p(contains(s.text))}`;
    case 'date':
      return `date_text LIKE ${p(contains(s.text))}`;
    case 'status':
      return `subscription_status LIKE ${p(`${s.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`;
    case 'tokens':
      return `token_balance = ${p(s.tokens)}`;
    case 'created':
      return `created_at >= ${p(s.from)} AND created_at < ${p(s.to)}`;
    case 'plan':
      return `subscription_plan = ${p(s.plan)}`;
  }
}

/** Every user, newest first. */
export async function allUsers(db: Queryable): Promise<AdminUserRecord[]> {
  const { rows } = await db.query<Row>(
    `SELECT ${COLUMNS} FROM admin_users WHERE created_at IS NOT NULL ORDER BY created_at DESC, id`,
  );
  return rows.map(record);
}

/** Up to this many matches are counted exactly; beyond, the total is the planner's estimate. */
export const EXACT_TOTAL_CAP = 10_000;
/** From this share of the table on, matches are dense enough to walk the newest-first index. */
const DENSE_SHARE = 0.05;

/**
 * One page of the users a search and filters select, newest first, and how many there are.
 * Counting a third of a million trigram matches exactly takes most of a second, and no operator
 * pages that far, so the count stops at EXACT_TOTAL_CAP and larger totals are the planner's
 * estimate (`totalExact` false). The plan is chosen from that estimate, because a GIN index cannot
 * stop early and the planner misjudges LIKE on trigrams: sparse matches are gathered from the
 * search indexes and sorted; dense ones are read in table or newest-first order, which finds the
 * first page and the capped count after a few thousand rows.
 */
export async function searchUsers(
  pool: Pool,
  q: UserListQuery,
  now: Date,
): Promise<{ users: AdminUserRecord[]; total: number; totalExact: boolean }> {
  return withTransaction(pool, async (tx) => {
    const s = q.search;
    if (s.kind === 'text' || s.kind === 'date') {
      const ranges = await matchingDayRanges(tx, s.text);
      // A date text matching too scattered a set of days ("1") matches most rows: the dense walk is quick there.
      if (ranges.length <= MAX_DAY_RANGES && (s.kind === 'date' || ranges.length > 0))
        return searchByDays(tx, q, now, ranges, s.kind === 'text' ? s.text : undefined);
    }
    return searchByIndexes(tx, q, now);
  });
}

/** More sign-up ranges than this and a date-text search goes the general way. */
const MAX_DAY_RANGES = 64;

/**
 * The UTC sign-up days whose date text contains `text`, merged into ranges, newest first. Only the
 * days between the first and the newest sign-up are tested: a few thousand, whatever the row count.
 */
export async function matchingDayRanges(db: Queryable, text: string): Promise<Array<{ from: Date; to: Date }>> {
  const { rows } = await db.query<{ from: Date; to: Date }>(
    `WITH bounds AS (SELECT min(created_at) AS lo, max(created_at) AS hi FROM admin_users),
     days AS (
       SELECT d FROM bounds,
         generate_series(date_trunc('day', lo AT TIME ZONE 'UTC'), date_trunc('day', hi AT TIME ZONE 'UTC'), interval '1 day') AS d
       WHERE admin_date_text(d) LIKE $1),
     runs AS (SELECT d, d - (row_number() OVER (ORDER BY d)) * interval '1 day' AS run FROM days)
     SELECT min(d) AT TIME ZONE 'UTC' AS "from", (max(d) + interval '1 day') AT TIME ZONE 'UTC' AS "to"
     FROM runs GROUP BY run ORDER BY 1 DESC`,
    [contains(text)],
  );
  return rows;
}

/**
 * A date-text search as sign-up time ranges: one branch per range, each read newest-first from
 * admin_users_created and merged (the first page comes after 50 rows, wherever the ranges lie).
 * Free text adds the rows its other fields match (search_rest) outside those ranges.
 */
async function searchByDays(
  tx: Queryable,
  q: UserListQuery,
  now: Date,
  ranges: Array<{ from: Date; to: Date }>,
  freeText: string | undefined,
) {
  const { sql: filters, values } = userWhere({ ...q, search: { kind: 'all' } }, now);
  const p = (v: unknown) => {
    values.push(v);
    return `$${values.length}`;
  };
  const inRange = ranges.map((r) => `(created_at >= ${p(r.from)} AND created_at < ${p(r.to)})`);
  const branches = inRange.map((r) => `${r} AND ${filters}`);
  if (freeText !== undefined)
    branches.push(
      `search_rest LIKE ${p(contains(freeText))}${inRange.length ? ` AND NOT (${inRange.join(' OR ')})` : ''} AND ${filters}`,
    );
  if (branches.length === 0) return { users: [], total: 0, totalExact: true };
  const union = (columns: string) =>
    branches.map((b) => `SELECT ${columns} FROM admin_users WHERE ${b}`).join(' UNION ALL ');
  const n = values.length;
  const [estimate, counted, page] = [
    await tx.query<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }>(
      `EXPLAIN (FORMAT JSON) ${union('1')}`,
      values,
    ),
    await tx.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM (${union('1')}) u LIMIT ${EXACT_TOTAL_CAP + 1}) s`,
      values,
    ),
    // Each branch gives at most the rows up to the page's end, read newest-first from its index;
    // the merge then sorts a few hundred rows, never the whole match.
    await tx.query<Row>(
      `SELECT ${COLUMNS} FROM (${branches
        .map((b) => `(SELECT * FROM admin_users WHERE ${b} ORDER BY created_at DESC, id LIMIT $${n + 3})`)
        .join(' UNION ALL ')}) admin_users ORDER BY created_at DESC, id LIMIT $${n + 1} OFFSET $${n + 2}`,
      [...values, q.pageSize, (q.page - 1) * q.pageSize, q.page * q.pageSize],
    ),
  ];
  const exact = counted.rows[0]!.n;
  const totalExact = exact <= EXACT_TOTAL_CAP;
  const estimated = estimate.rows[0]!['QUERY PLAN'][0]!.Plan['Plan Rows'];
  return {
    users: page.rows.map(record),
    total: totalExact ? exact : Math.max(EXACT_TOTAL_CAP + 1, Math.round(estimated)),
    totalExact,
  };
}

async function searchByIndexes(tx: Queryable, q: UserListQuery, now: Date) {
  const { sql, values } = userWhere(q, now);
  const n = values.length;
  const [estimate, size] = await Promise.all([
    tx.query<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }>(
      `EXPLAIN (FORMAT JSON) SELECT 1 FROM admin_users WHERE ${sql}`,
      values,
    ),
    tx.query<{ rows: number }>(
      "SELECT greatest(reltuples, 0)::float8 AS rows FROM pg_class WHERE relname = 'admin_users'",
    ),
  ]);
  const estimated = estimate.rows[0]!['QUERY PLAN'][0]!.Plan['Plan Rows'];
  const dense = estimated / Math.max(size.rows[0]?.rows ?? 0, 1) >= DENSE_SHARE;
  // A sign-up time range, and a plan (admin_users_plan is ordered by sign-up within each plan), is
  // read in order from its own index, however many rows match: nothing to choose there. Forcing a
  // bitmap gather on a plan that sits just under DENSE_SHARE sorted ~50,000 rows for one page.
  if (q.search.kind !== 'created' && q.search.kind !== 'plan')
    await tx.query(dense ? 'SET LOCAL enable_bitmapscan = off' : 'SET LOCAL enable_indexscan = off');
  const counted = await tx.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM admin_users WHERE ${sql} LIMIT ${EXACT_TOTAL_CAP + 1}) s`,
    values,
  );
  const exact = counted.rows[0]!.n;
  const totalExact = exact <= EXACT_TOTAL_CAP;
  const page = await tx.query<Row>(
    `SELECT ${COLUMNS} FROM admin_users WHERE ${sql} ORDER BY created_at DESC, id LIMIT $${n + 1} OFFSET $${n + 2}`,
    [...values, q.pageSize, (q.page - 1) * q.pageSize],
  );
  return {
    users: page.rows.map(record),
    total: totalExact ? exact : Math.max(EXACT_TOTAL_CAP + 1, Math.round(estimated)),
    totalExact,
  };
}

export async function findUserByEmail(db: Queryable, email: string): Promise<AdminUserRecord | undefined> {
  const { rows } = await db.query<Row>(
    `SELECT ${COLUMNS} FROM admin_users WHERE lower(email) = lower($1) AND created_at IS NOT NULL
     ORDER BY created_at LIMIT 1`,
    [email.trim()],
  );
  return rows[0] && record(rows[0]);
}

export async function signupStats(db: Queryable, now: Date) {
  const { rows } = await db.query<{ day: string; total: string }>(
    `SELECT count(*) FILTER (WHERE created_at > $1 AND created_at <= $2) AS day, count(*) AS total
     FROM admin_users WHERE created_at IS NOT NULL`,
    [new Date(now.getTime() - DAY), now],
  );
  return { newSignups24h: Number(rows[0]!.day), totalUsers: Number(rows[0]!.total) };
}

export async function paidUserStats(db: Queryable, now: Date) {
  const { rows } = await db.query<{ day: string; total: string }>(
    `SELECT (SELECT count(*) FROM admin_users WHERE last_paid_at > $1 AND last_paid_at <= $2 AND created_at IS NOT NULL) AS day,
            (SELECT count(*) FROM admin_users WHERE first_paid_at IS NOT NULL AND created_at IS NOT NULL) AS total`,
    [new Date(now.getTime() - DAY), now],
  );
  return { paidUsersLast24h: Number(rows[0]!.day), totalPaidUsers: Number(rows[0]!.total) };
}

export async function signupTrend(db: Queryable, period: TrendPeriod, now: Date) {
  const first = await db.query<{ first: Date | null }>('SELECT min(created_at) AS first FROM admin_users');
  const buckets = trendBuckets(period, now, first.rows[0]?.first ?? undefined);
  const { rows } = await db.query<{ day: Date; n: string }>(
    `SELECT (date_trunc('day', created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') AS day, count(*) AS n
     FROM admin_users WHERE created_at >= $1 AND created_at < $2 GROUP BY 1`,
    [buckets[0]!.start, buckets[buckets.length - 1]!.end],
  );
  return fillBuckets(
    buckets,
    rows.map((r) => ({ day: r.day, signups: Number(r.n) })),
  );
}

export async function overview(db: Queryable, now: Date) {
  const { thisMonth, lastMonth, nextMonth } = monthWindows(now);
  const month = new Date(now.getTime() - 30 * DAY);
  const dayAgo = new Date(now.getTime() - DAY);
  const [signups, paid, figures, anon, position, disputes] = await Promise.all([
    signupStats(db, now),
    paidUserStats(db, now),
    db.query<Record<string, string>>(
      `SELECT count(*) FILTER (WHERE created_at >= $1 AND created_at < $2) AS this_month,
              count(*) FILTER (WHERE created_at >= $3 AND created_at < $1) AS last_month,
              count(*) FILTER (WHERE created_at <= $4) AS eligible,
              count(*) FILTER (WHERE created_at <= $4 AND last_active > $4) AS retained,
              count(*) FILTER (WHERE subscription_plan = 'lite') AS lite,
              count(*) FILTER (WHERE subscription_plan = 'studio') AS studio,
              count(*) FILTER (WHERE subscription_plan = 'bulk') AS bulk,
              count(*) FILTER (WHERE subscription_plan = 'unlimited') AS unlimited,
              count(*) FILTER (WHERE subscription_plan NOT IN ('lite', 'studio', 'bulk', 'unlimited')) AS none
       FROM admin_users WHERE created_at IS NOT NULL`,
      [thisMonth, nextMonth, lastMonth, month],
    ),
    db.query<{ total: string; day: string }>(
      'SELECT count(*) AS total, count(*) FILTER (WHERE occurred_at > $1) AS day FROM anonymous_purchases',
      [dayAgo],
    ),
    db.query<{ newest: Date | null }>('SELECT max(newest_event_at) AS newest FROM projection_positions'),
    // Open: not yet decided (Stripe's won, lost, warning_closed and a refunded charge are decided).
    db.query<{ total: string; open: string }>(
      `SELECT count(*) AS total,
              count(*) FILTER (WHERE status NOT IN ('won', 'lost', 'warning_closed', 'charge_refunded')) AS open
       FROM payment_disputes`,
    ),
  ]);
  const f = figures.rows[0]!;
  const n = (k: string) => Number(f[k]);
  const newest = position.rows[0]?.newest ?? null;
  return {
    totalUsers: signups.totalUsers,
    newSignups24h: signups.newSignups24h,
    paidUsersLast24h: paid.paidUsersLast24h,
    totalPaidUsers: paid.totalPaidUsers,
    signupsThisMonth: n('this_month'),
    signupsLastMonth: n('last_month'),
    monthlyGrowthRate: monthlyGrowthRate(n('this_month'), n('last_month')),
    userRetention30d: retentionRate(n('retained'), n('eligible')),
    conversionRate: conversionRate(paid.paidUsersLast24h, signups.newSignups24h),
    planDistribution: {
      lite: n('lite'),
      studio: n('studio'),
      bulk: n('bulk'),
      unlimited: n('unlimited'),
      none: n('none'),
    },
    anonymousPurchases: Number(anon.rows[0]!.total),
    anonymousPurchases24h: Number(anon.rows[0]!.day),
    paymentDisputes: Number(disputes.rows[0]!.total),
    paymentDisputesOpen: Number(disputes.rows[0]!.open),
    projectionLagSeconds: newest ? Math.max(0, (now.getTime() - newest.getTime()) / 1000) : -1,
    newestEventAt: newest?.toISOString() ?? '',
  };
}
