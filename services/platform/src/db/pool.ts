import pg from 'pg';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
/** Anything that runs a query: a pool or a client inside a transaction. */
export type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;

// int8 (bigint) columns come back as strings by default; our counters stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export function createPool(connectionString: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString, max, idleTimeoutMillis: 30_000 });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  return pool;
}

/** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
export async function withTransaction<T>(pool: pg.Pool, work: (tx: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // A connection lost mid-transaction fails the query below; without a listener it would
  // also crash the process as an unhandled 'error' event.
  const ignore = () => undefined;
  client.on('error', ignore);
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.off('error', ignore);
    client.release();
  }
}

/** The connection string of another database on the same server. */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Creates a database when it does not exist yet (CREATE DATABASE cannot run in a transaction). */
export async function ensureDatabase(serverUrl: string, database: string): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(database)) throw new Error(`Invalid database name: ${database}`);
  const admin = new pg.Client({ connectionString: databaseUrl(serverUrl, 'postgres') });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) {
      await admin.query(`CREATE DATABASE ${database}`).catch((e: { code?: string }) => {
        if (e.code !== '42P04' && e.code !== '23505') throw e; // created concurrently by a sibling
      });
    }
  } finally {
    await admin.end();
  }
  return databaseUrl(serverUrl, database);
}
