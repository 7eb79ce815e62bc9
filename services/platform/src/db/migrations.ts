import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type pg from 'pg';

export interface MigrationSource {
  /** Distinguishes independent migration sets in one database (e.g. 'platform', 'ledger'). */
  name: string;
  /** Folder of `NNNN_description.sql` files, applied in name order. */
  dir: string;
}

const LOCK_ID = 727_101; // arbitrary, constant: serialises migrators of one database

/**
 * Applies pending SQL migrations, each in its own transaction, under an advisory lock so that
 * several replicas starting together migrate once. A changed, already-applied file stops the
 * start-up: history is append-only.
 * Returns the number of migrations applied in total for the given sources.
 */
export async function runMigrations(pool: pg.Pool, sources: MigrationSource[]): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_ID]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      source text NOT NULL, name text NOT NULL, checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (source, name))`);
    let total = 0;
    for (const source of sources) {
      const files = (await readdir(source.dir)).filter((f) => f.endsWith('.sql')).sort();
      const applied = new Map<string, string>(
        (await client.query('SELECT name, checksum FROM schema_migrations WHERE source = $1', [source.name])).rows.map(
          (r: { name: string; checksum: string }) => [r.name, r.checksum],
        ),
      );
      for (const file of files) {
        const sql = await readFile(join(source.dir, file), 'utf8');
        const checksum = createHash('sha256').update(sql).digest('hex');
        const known = applied.get(file);
        if (known !== undefined) {
          if (known !== checksum)
            throw new Error(
              `Migration ${source.name}/${file} was changed after it was applied; add a new migration instead`,
            );
          total++;
          continue;
        }
        try {
          await client.query('BEGIN');
          await client.query(sql);
          await client.query('INSERT INTO schema_migrations (source, name, checksum) VALUES ($1, $2, $3)', [
            source.name,
            file,
            checksum,
          ]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw new Error(`Migration ${source.name}/${file} failed: ${(error as Error).message}`);
        }
        total++;
      }
    }
    return total;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK_ID]).catch(() => undefined);
    client.release();
  }
}
