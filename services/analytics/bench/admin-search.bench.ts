// npm run bench:admin-search: one million generated users in a fresh analytics database (migrated
// as in production, indexes included), then p50/p95 latency of each kind of admin search, each run
// as the API runs it (the page and the total). Needs DATABASE_URL (npm run infra:up prints it).
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { createPool, ensureDatabase, platformMigrations, runMigrations } from '@flatlay/platform';
import { userListQuery, type UserListQuery } from '../src/domain/user-search.js';
import { searchUsers } from '../src/adapters/admin-queries.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is not set (npm run infra:up, or point it at a PostgreSQL server)');

// BENCH_DB names a database to keep and reuse (loaded once), for looking at plans between runs.
const keep = process.env.BENCH_DB;
const name = keep ?? `analytics_bench_${randomUUID().replaceAll('-', '').slice(0, 8)}`;
const pool = createPool(await ensureDatabase(url, name), 4);
try {
  await runMigrations(pool, [
    platformMigrations,
    { name: 'analytics', dir: new URL('../src/db/migrations', import.meta.url).pathname },
  ]);
  // Loading is faster without the indexes; they are made again, exactly as the migration made them.
  const loaded = Number((await pool.query('SELECT count(*) AS n FROM admin_users')).rows[0].n);
  if (loaded < ROWS) await load();
  async function load() {
    const { rows: indexes } = await pool.query<{ indexname: string; indexdef: string }>(
      "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'admin_users' AND indexname <> 'admin_users_pkey'",
    );
    for (const i of indexes) await pool.query(`DROP INDEX ${i.indexname}`);
    let t = performance.now();
    const chunk = 100_000;
    for (let from = 0; from < ROWS; from += chunk) {
      await pool.query(
        `INSERT INTO admin_users (id, email, first_name, last_name, picture, token_balance, subscription_status,
         subscription_plan, subscription_period_end, created_at, updated_at, total_images_processed, last_active)
       SELECT 'u' || g, 'user' || g || '@' || (ARRAY['gmail.com','example.com','shop.io','mail.de'])[1 + g % 4],
         CASE WHEN g % 3 = 0 THEN '' ELSE (ARRAY['Ada','Bob','Cleo','Dan','Eve','Finn','Gus'])[1 + g % 7] || g % 1000 END,
         CASE WHEN g % 2 = 0 THEN 'Smith' ELSE '' END, '',
         (g::bigint * 7919) % 400,
         CASE WHEN g % 10 < 3 THEN 'active' WHEN g % 10 = 3 THEN 'canceled' ELSE '' END,
         CASE WHEN g % 10 < 3 THEN (ARRAY['lite','studio','bulk','unlimited'])[1 + g % 4] ELSE 'none' END,
         CASE WHEN g % 10 < 4 THEN now() + interval '10 days' END,
         now() - (g % 1000) * interval '1 day' - (g % 86400) * interval '1 second', now(), g % 12,
         CASE WHEN g % 5 = 0 THEN NULL ELSE now() - (g % 60) * interval '1 day' END
       FROM generate_series($1::int, $2::int) AS g`,
        [from, Math.min(ROWS, from + chunk) - 1],
      );
    }
    console.log(`loaded ${ROWS} rows in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    t = performance.now();
    for (const i of indexes) await pool.query(i.indexdef);
    await pool.query('ANALYZE admin_users');
    console.log(`indexed in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }

  const kinds: Array<[string, Parameters<typeof userListQuery>[0]]> = [
    ['no search, first page', {}],
    ['free text, one user (user123457)', { q: 'user123457' }],
    ['free text, many (smith)', { q: 'smith' }],
    ['free text, date (2024-03)', { q: '2024-03' }],
    ['email:shop.io', { q: 'email:shop.io' }],
    ['email:, one user', { q: 'email:user98765@' }],
    ['name:cleo42', { q: 'name:cleo42' }],
    ['plan:unlimited', { q: 'plan:unlimited' }],
    ['tokens:150', { q: 'tokens:150' }],
    ['status:canceled', { q: 'status:canceled' }],
    ['created:2024-03 (a sign-up time range)', { q: 'created:2024-03' }],
    ['created:march (date text)', { q: 'created:march' }],
    ['unknown field', { q: 'role:admin' }],
    ['filters: studio, high, 30 days', { plan: 'studio', balance: 'high', signup: '30' }],
    ['text + filters: ada, low', { q: 'ada', balance: 'low' }],
    ['page 100 of everything', { page: 100 }],
  ];
  const now = new Date();
  console.log(`\n${'query kind'.padEnd(38)} ${'matches'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)}`);
  for (const [label, input] of kinds) {
    const q = userListQuery(input) as UserListQuery;
    const times: number[] = [];
    let total = 0;
    for (let i = 0; i < RUNS + 3; i++) {
      const s = performance.now();
      total = (await searchUsers(pool, q, now)).total;
      if (i >= 3) times.push(performance.now() - s);
    }
    times.sort((a, b) => a - b);
    const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(1);
    console.log(`${label.padEnd(38)} ${String(total).padStart(8)} ${at(0.5).padStart(8)} ${at(0.95).padStart(8)}`);
  }
} finally {
  await pool.end();
  const admin = createPool(url, 1);
  if (!keep) await admin.query(`DROP DATABASE IF EXISTS ${name}`).catch(() => undefined);
  await admin.end();
}
