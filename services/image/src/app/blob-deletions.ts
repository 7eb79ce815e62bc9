import type { Logger, Pool, Queryable } from '@flatlay/platform';
import type { BlobStore } from '@flatlay/files';

export interface BlobDeletion {
  key: string;
  /** A folder (ending in '/'): every file under it goes. */
  prefix: boolean;
}

/**
 * Records files to delete, in the caller's transaction (the one that deletes their rows). The
 * store is never called inside a transaction: a slow or unreachable store would hold the rows'
 * locks, the inbox's transaction and so the outbox relay's horizon.
 */
export async function recordBlobDeletions(tx: Queryable, deletions: BlobDeletion[]): Promise<void> {
  if (deletions.length === 0) return;
  await tx.query('INSERT INTO blob_deletions (blob_key, is_prefix) SELECT * FROM unnest($1::text[], $2::boolean[])', [
    deletions.map((d) => d.key),
    deletions.map((d) => d.prefix),
  ]);
}

const RETRY_BASE_MS = 1_000;
const RETRY_MAX_MS = 10 * 60_000;

/**
 * Deletes recorded files that are due, after their rows' transaction committed. A row goes only
 * once its file is gone (deleting is repeatable, so two sweepers at once, or a crash between the
 * delete and the row, only delete twice); a failure is noted and tried again later with back-off.
 * Returns how many were deleted.
 */
export async function drainBlobDeletions(pool: Pool, blobs: BlobStore, logger: Logger, limit = 100): Promise<number> {
  const { rows } = await pool.query<{ id: string; blob_key: string; is_prefix: boolean; attempts: number }>(
    'SELECT id, blob_key, is_prefix, attempts FROM blob_deletions WHERE due_at <= now() ORDER BY id LIMIT $1',
    [limit],
  );
  let deleted = 0;
  for (const row of rows) {
    try {
      if (row.is_prefix) await blobs.deletePrefix(row.blob_key);
      else await blobs.delete(row.blob_key);
      await pool.query('DELETE FROM blob_deletions WHERE id = $1', [row.id]);
      deleted++;
    } catch (err) {
      const delayMs = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.min(row.attempts, 20));
      await pool
        .query(
          `UPDATE blob_deletions SET attempts = attempts + 1, last_error = $2,
             due_at = now() + make_interval(secs => $3::double precision / 1000) WHERE id = $1`,
          [row.id, err instanceof Error ? err.message.slice(0, 500) : String(err), delayMs],
        )
        .catch(() => undefined);
      logger.warn({ err, key: row.blob_key, attempts: row.attempts + 1 }, 'deleting a file failed; trying again later');
    }
  }
  return deleted;
}

/** Drains recorded file deletions every `intervalMs` (those a handler's own drain left behind). */
export function startBlobDeletionSweeper(o: {
  pool: Pool;
  blobs: BlobStore;
  logger: Logger;
  intervalMs: number;
}): () => Promise<void> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = drainBlobDeletions(o.pool, o.blobs, o.logger)
      .catch((err) => o.logger.warn({ err }, 'blob deletion sweep failed; trying again'))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, o.intervalMs);
      });
  };
  timer = setTimeout(tick, o.intervalMs);
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
