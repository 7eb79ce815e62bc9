import { withTransaction, type Logger, type Pool, type Queryable } from '@flatlay/platform';
import type { BlobStore } from '@flatlay/files';
import { imageFolder } from '../adapters/image-store.js';

// A guest's tries (ADR 0105): how many are still processing (the gateway's limit on unfinished
// jobs), and their retention: an unclaimed, unpaid try is deleted, files and row, once it is
// older than the retention. A claimed try is a user's image and a paid one is what the guest
// bought: both are kept, and only forget the client hash they were made from.

/** A guest's tries still processing, by e-mail address (any case) and by client; an empty key counts 0. */
export async function countUnfinishedGuestTries(
  q: Queryable,
  guestEmail: string,
  guestClient: string,
): Promise<{ byEmail: number; byClient: number }> {
  const email = guestEmail.trim().toLowerCase();
  const { rows } = await q.query<{ by_email: string; by_client: string }>(
    `SELECT
       (SELECT count(*) FROM images WHERE $1 <> '' AND guest_email = $1 AND status = 'processing' AND user_id IS NULL)
         AS by_email,
       (SELECT count(*) FROM images WHERE $2 <> '' AND guest_client = $2 AND status = 'processing' AND user_id IS NULL)
         AS by_client`,
    [email, guestClient],
  );
  return { byEmail: Number(rows[0]?.by_email ?? 0), byClient: Number(rows[0]?.by_client ?? 0) };
}

/** What makes a guest's try expire: unclaimed, unpaid, made before `$1`. */
const EXPIRED = 'user_id IS NULL AND guest_email IS NOT NULL AND payment_id IS NULL AND created_at < $1';

export interface GuestRetentionOptions {
  pool: Pool;
  blobs: BlobStore;
  logger: Logger;
  /** How long a guest's try is kept, in days. */
  retentionDays: number;
  clock?: () => Date;
  /** Tries handled per sweep at most (the next sweep takes the rest). */
  batch?: number;
}

export interface GuestSweepOutcome {
  deleted: number;
  failed: number;
}

/**
 * Deletes expired guest tries. Each try is handled on its own, in its own transaction: its row is
 * locked and checked again (a try claimed or paid since it was listed is kept), its files are
 * deleted, then its row. A try whose files cannot be deleted keeps its row (the next sweep tries
 * again; deleting is repeatable) and does not stop the others.
 */
export class GuestRetention {
  private readonly clock: () => Date;

  constructor(private readonly o: GuestRetentionOptions) {
    this.clock = o.clock ?? (() => new Date());
  }

  /** The moment before which a guest's try has expired. */
  cutoff(): Date {
    return new Date(this.clock().getTime() - this.o.retentionDays * 24 * 60 * 60 * 1000);
  }

  async sweep(): Promise<GuestSweepOutcome> {
    const { pool, blobs, logger } = this.o;
    const before = this.cutoff();
    const { rows } = await pool.query<{ image_id: string }>(
      `SELECT image_id FROM images WHERE ${EXPIRED} ORDER BY created_at LIMIT $2`,
      [before, this.o.batch ?? 500],
    );
    const outcome: GuestSweepOutcome = { deleted: 0, failed: 0 };
    for (const { image_id: imageId } of rows) {
      try {
        const deleted = await withTransaction(pool, async (tx) => {
          const { rows: still } = await tx.query<{ original_key: string }>(
            `SELECT original_key FROM images WHERE image_id = $2 AND ${EXPIRED} FOR UPDATE`,
            [before, imageId],
          );
          if (!still[0]) return false;
          await blobs.delete(still[0].original_key);
          await blobs.deletePrefix(imageFolder(imageId));
          await tx.query('DELETE FROM images WHERE image_id = $1', [imageId]);
          return true;
        });
        if (deleted) outcome.deleted++;
      } catch (err) {
        outcome.failed++;
        logger.warn({ err, imageId }, "could not delete an expired guest's try; the next sweep tries again");
      }
    }
    // Kept tries (claimed or paid) past the retention no longer need the client they came from.
    await pool.query('UPDATE images SET guest_client = NULL WHERE guest_client IS NOT NULL AND created_at < $1', [
      before,
    ]);
    if (outcome.deleted || outcome.failed) logger.info(outcome, "expired guests' tries swept");
    return outcome;
  }

  /** Sweeps now and then every `intervalMs`; the answer stops it. */
  start(intervalMs: number): () => Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    let stopped = false;
    let running: Promise<unknown> = Promise.resolve();
    const tick = () => {
      running = this.sweep()
        .catch((err) => this.o.logger.warn({ err }, 'guest retention sweep failed; trying again'))
        .finally(() => {
          if (!stopped) timer = setTimeout(tick, intervalMs);
        });
    };
    tick();
    return async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    };
  }
}
