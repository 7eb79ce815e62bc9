import type { Queryable } from '@flatlay/platform';

/** SQL of the export requests (data_exports, ADR 0403). */
export const dataExportStore = {
  /** The open request of the user, if any (one at a time: a unique index). */
  async openOf(db: Queryable, userId: string): Promise<string | undefined> {
    const { rows } = await db.query<{ id: string }>(
      'SELECT id FROM data_exports WHERE user_id = $1 AND completed_at IS NULL',
      [userId],
    );
    return rows[0]?.id;
  },

  /** Inserts a request unless one is open; answers the open one either way. */
  async insertOpen(db: Queryable, id: string, userId: string, now: Date): Promise<string> {
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO data_exports (id, user_id, requested_at, due_at) VALUES ($1, $2, $3, $3)
       ON CONFLICT (user_id) WHERE completed_at IS NULL DO NOTHING RETURNING id`,
      [id, userId, now],
    );
    return rows[0]?.id ?? (await this.openOf(db, userId)) ?? id;
  },

  /**
   * Takes the oldest due request that has been claimed fewer than `maxAttempts` times: its due time
   * moves on by the lease, so no other worker takes it meanwhile, and it is due again if this one
   * dies (SKIP LOCKED: workers never wait on each other).
   */
  async claimDue(
    db: Queryable,
    now: Date,
    leaseSeconds: number,
    maxAttempts: number,
  ): Promise<{ id: string; userId: string } | undefined> {
    const { rows } = await db.query<{ id: string; user_id: string }>(
      `UPDATE data_exports SET due_at = $1::timestamptz + make_interval(secs => $2), attempts = attempts + 1
        WHERE id = (SELECT id FROM data_exports WHERE completed_at IS NULL AND due_at <= $1 AND attempts < $3
                     ORDER BY due_at LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING id, user_id`,
      [now, leaseSeconds, maxAttempts],
    );
    return rows[0] ? { id: rows[0].id, userId: rows[0].user_id } : undefined;
  },

  /**
   * Closes the requests whose last allowed claim ran out without completing (a worker failed on
   * them every time); answers whose they were. Closed, they no longer block a new request.
   */
  async giveUpExhausted(db: Queryable, now: Date, maxAttempts: number): Promise<{ id: string; userId: string }[]> {
    const { rows } = await db.query<{ id: string; user_id: string }>(
      `UPDATE data_exports SET completed_at = $1, gave_up_at = $1
        WHERE completed_at IS NULL AND due_at <= $1 AND attempts >= $2
        RETURNING id, user_id`,
      [now, maxAttempts],
    );
    return rows.map((r) => ({ id: r.id, userId: r.user_id }));
  },

  /** Closed requests (done or given up) at least as old as `before` whose archive is not yet deleted. */
  async unswept(db: Queryable, before: Date, limit: number): Promise<{ id: string; userId: string }[]> {
    const { rows } = await db.query<{ id: string; user_id: string }>(
      `SELECT id, user_id FROM data_exports
        WHERE completed_at IS NOT NULL AND completed_at <= $1 AND archive_swept_at IS NULL
        ORDER BY completed_at LIMIT $2`,
      [before, limit],
    );
    return rows.map((r) => ({ id: r.id, userId: r.user_id }));
  },

  async markSwept(db: Queryable, ids: string[], now: Date): Promise<number> {
    if (!ids.length) return 0;
    const { rowCount } = await db.query(
      'UPDATE data_exports SET archive_swept_at = $2 WHERE id = ANY($1::uuid[]) AND archive_swept_at IS NULL',
      [ids, now],
    );
    return rowCount ?? 0;
  },

  /** Marks the request done; the user it was for when it was still open (else undefined). */
  async complete(db: Queryable, id: string, now: Date): Promise<string | undefined> {
    const { rows } = await db.query<{ user_id: string }>(
      'UPDATE data_exports SET completed_at = $2 WHERE id = $1 AND completed_at IS NULL RETURNING user_id',
      [id, now],
    );
    return rows[0]?.user_id;
  },
};
