// `npm run bench:ledger`: sustained spends per second and p50/p99 latency at 1, 10 and 50
// concurrent clients on real PostgreSQL, against the same database's bare single-row
// INSERT+COMMIT rate at 50 clients (the limit). A benchmark, not a test: it prints figures.
import { randomUUID } from 'node:crypto';
import { createPool, runMigrations, ensureDatabase, platformMigrations, type Pool } from '@flatlay/platform';
import { TokenAccounts } from '../src/app/token-accounts.js';
import { ledgerService } from '../src/service.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CLIENT_COUNTS = [1, 10, 50];

interface Run {
  label: string;
  clients: number;
  ops: number;
  perSecond: number;
  p50: number;
  p99: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function measure(label: string, clients: number, op: (client: number, i: number) => Promise<void>): Promise<Run> {
  const latencies: number[] = [];
  const until = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let i = 0; performance.now() < until; i++) {
        const t = performance.now();
        await op(client, i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    label,
    clients,
    ops: latencies.length,
    perSecond: latencies.length / SECONDS,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

async function serverUrl(): Promise<{ url: string; stop?: () => Promise<void> }> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL };
  const infra = await import('../../../scripts/infra.mjs');
  const env = await infra.up();
  return { url: env.DATABASE_URL, stop: () => infra.down() };
}

const server = await serverUrl();
const url = await ensureDatabase(server.url, `bench_ledger_${randomUUID().slice(0, 8)}`);
const pool: Pool = createPool(url, 60);
await runMigrations(pool, [platformMigrations, { name: 'ledger', dir: ledgerService.migrationsDir }]);
await pool.query(
  'CREATE TABLE bench_bare (id bigserial PRIMARY KEY, user_id text NOT NULL, amount bigint NOT NULL, at timestamptz NOT NULL DEFAULT now())',
);

const { rows } = await pool.query(
  "SELECT current_setting('fsync') AS fsync, current_setting('synchronous_commit') AS sync, version()",
);
console.log(
  `PostgreSQL: ${rows[0].version.split(' ').slice(0, 2).join(' ')}, fsync=${rows[0].fsync}, synchronous_commit=${rows[0].sync}; ${SECONDS} s per run`,
);

// Warm the pool's 60 connections so neither side pays for connecting.
await Promise.all(Array.from({ length: 60 }, () => pool.query('SELECT 1')));

const bare = await measure('bare INSERT+COMMIT', 50, async (client) => {
  await pool.query('INSERT INTO bench_bare (user_id, amount) VALUES ($1, $2)', [`u${client}`, 100]);
});

const accounts = new TokenAccounts(pool, { batchesInFlight: Number(process.env.BENCH_BATCHES_IN_FLIGHT ?? 2) });
const runs: Run[] = [];
for (const clients of CLIENT_COUNTS) {
  // Each client spends on its own account, funded well beyond the run.
  const users = Array.from({ length: clients }, () => randomUUID());
  for (const userId of users) {
    await accounts.execute(userId, { type: 'SignUpGrant', data: { at: new Date() } });
    await accounts.execute(userId, {
      type: 'CreditPayment',
      data: { paymentId: randomUUID(), packId: 'bench', packName: 'bench', tokens: 100_000_000, at: new Date() },
    });
  }
  runs.push(
    await measure('ledger spend', clients, async (client, i) => {
      await accounts.execute(users[client]!, { type: 'SpendForImage', data: { imageId: `img-${i}`, at: new Date() } });
    }),
  );
}

const fmt = (n: number, d = 1) => n.toFixed(d).padStart(9);
console.log('\n| run | clients | ops | per second | p50 ms | p99 ms |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const r of [bare, ...runs])
  console.log(`| ${r.label} | ${r.clients} | ${r.ops} | ${fmt(r.perSecond)} | ${fmt(r.p50, 2)} | ${fmt(r.p99, 2)} |`);
const at50 = runs.find((r) => r.clients === 50)!;
const ratio = at50.perSecond / bare.perSecond;
console.log(
  `\nledger at 50 clients / bare commit rate at 50 clients = ${ratio.toFixed(2)} (target >= 0.50): ${ratio >= 0.5 ? 'MET' : 'NOT MET'}`,
);
console.log(
  `ledger p99 at 50 clients = ${at50.p99.toFixed(1)} ms (target < 50 ms): ${at50.p99 < 50 ? 'MET' : 'NOT MET'}`,
);
await pool.end();
await server.stop?.();
