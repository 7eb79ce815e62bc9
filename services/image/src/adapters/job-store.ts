import type { Queryable } from '@flatlay/platform';
import type { JobState } from '../domain/index.js';

// The generation_jobs table. A change is written only if the row is still at the version it
// was decided on (a conditional UPDATE): of two workers claiming one job, exactly one wins.

export interface LoadedJob {
  state: JobState;
  version: number;
}

interface Row {
  status: JobState['status'];
  attempts: number;
  worker: string | null;
  lease_expires_at: Date | null;
  not_before: Date;
  version: string;
}

export async function insertJob(q: Queryable, imageId: string, state: JobState, at: Date): Promise<void> {
  await q.query(
    `INSERT INTO generation_jobs (image_id, status, attempts, not_before, updated_at) VALUES ($1, $2, $3, $4, $5)`,
    [imageId, state.status, state.attempts, state.notBefore, at],
  );
}

export async function loadJob(q: Queryable, imageId: string): Promise<LoadedJob | undefined> {
  const { rows } = await q.query<Row>(
    'SELECT status, attempts, worker, lease_expires_at, not_before, version FROM generation_jobs WHERE image_id = $1',
    [imageId],
  );
  const r = rows[0];
  if (!r) return undefined;
  return {
    state: {
      status: r.status,
      attempts: r.attempts,
      worker: r.worker,
      leaseExpiresAt: r.lease_expires_at,
      notBefore: r.not_before,
    },
    version: Number(r.version),
  };
}

/** Writes the new state if the job is still at `version`; false when someone else moved it. */
export async function saveJob(
  q: Queryable,
  imageId: string,
  next: JobState,
  version: number,
  at: Date,
  lastError?: string,
): Promise<boolean> {
  const r = await q.query(
    `UPDATE generation_jobs SET status = $3, attempts = $4, worker = $5, lease_expires_at = $6, not_before = $7,
       last_error = COALESCE($8, last_error), version = version + 1, updated_at = $9
     WHERE image_id = $1 AND version = $2`,
    [
      imageId,
      version,
      next.status,
      next.attempts,
      next.worker,
      next.leaseExpiresAt,
      next.notBefore,
      lastError ?? null,
      at,
    ],
  );
  return r.rowCount === 1;
}

/**
 * Jobs a worker should look at without being told: retries that are due, running jobs whose
 * worker let the lease run out, and first attempts the bus has not delivered within `graceMs`.
 */
export async function dueJobs(q: Queryable, now: Date, graceMs: number, limit: number): Promise<string[]> {
  const { rows } = await q.query<{ image_id: string }>(
    `SELECT image_id FROM generation_jobs
     WHERE (status = 'queued' AND not_before <= $1::timestamptz - CASE WHEN attempts = 0 THEN $2::int * interval '1 millisecond' ELSE interval '0' END)
        OR (status = 'running' AND lease_expires_at <= $1::timestamptz)
     ORDER BY not_before LIMIT $3`,
    [now, graceMs, limit],
  );
  return rows.map((r) => r.image_id);
}

/** Jobs not finished, by status, and how long the longest-waiting due queued job has waited (s; 0 when none). */
export async function queueDepth(
  q: Queryable,
): Promise<{ byStatus: Record<'queued' | 'running' | 'charging', number>; oldestWaitS: number }> {
  const { rows } = await q.query<{ status: 'queued' | 'running' | 'charging'; jobs: number; oldest: number }>({
    name: 'image-queue-depth',
    text: `SELECT status, count(*)::int AS jobs,
             COALESCE(EXTRACT(EPOCH FROM max(now() - not_before) FILTER (WHERE not_before <= now())), 0)::float8 AS oldest
           FROM generation_jobs WHERE status IN ('queued', 'running', 'charging') GROUP BY status`,
  });
  const byStatus = { queued: 0, running: 0, charging: 0 };
  for (const r of rows) byStatus[r.status] = r.jobs;
  return { byStatus, oldestWaitS: Math.max(0, rows.find((r) => r.status === 'queued')?.oldest ?? 0) };
}
