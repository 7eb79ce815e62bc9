import { AppError, enqueueOutbox, withTransaction, type Logger, type Pool, type Queryable } from '@flatlay/platform';
import { decide, evolve, type JobCommand, type JobPolicy } from '../domain/index.js';
import { generationFailed, generationRequested } from './image-events.js';
import { failImage, findImage, type StoredImage } from '../adapters/image-store.js';
import { loadJob, saveJob } from '../adapters/job-store.js';
import type { LedgerPort } from '../adapters/ledger-client.js';

// Settling a signed-in user's generation charge (docs/decisions/0104-charges-and-refunds.md).
// The image and its job were recorded first, the job 'charging'; settling spends 100 tokens on
// the ledger (keyed by the image id, so a second settle charges nothing more and answers what the
// first took), then queues the job in one transaction with its GenerationRequested event. The
// request that made the image settles it at once; the charge sweeper settles any that a crash or
// an outage left behind. Whichever settles first wins; the other changes nothing.

export interface ChargeDeps {
  pool: Pool;
  ledger: LedgerPort;
  policy: JobPolicy;
  logger: Logger;
}

export type ChargeOutcome =
  /** Queued now: charged (`locked` false) or made locked for too few tokens. */
  | { kind: 'queued'; charged: number; balance: number | undefined; locked: boolean }
  /** The ledger refused for good (a closed account): the image failed, nothing was taken. */
  | { kind: 'refused'; message: string }
  /** Someone settled it before (or it is gone): the image row says how it stands. */
  | { kind: 'settled-before'; image: StoredImage | undefined };

/** A ledger refusal that no retry can change. */
export const isFinalRefusal = (error: unknown): error is AppError =>
  error instanceof AppError &&
  (error.details.reason === 'account_closed' || error.code === 'INVALID_ARGUMENT' || error.code === 'NOT_FOUND');

/** Writes a job command if the job is still where it was decided; false when someone moved it. */
async function applyJob(q: Queryable, imageId: string, command: JobCommand, policy: JobPolicy) {
  const job = await loadJob(q, imageId);
  if (!job) return undefined;
  const decision = decide(command, job.state, policy);
  if (decision.type === 'Superseded' || decision.type === 'NotClaimable') return undefined;
  const lastError = decision.type === 'Failed' ? decision.message : undefined;
  const saved = await saveJob(q, imageId, evolve(job.state, decision, ''), job.version, command.at, lastError);
  return saved ? decision : undefined;
}

/**
 * Settles the charge of one 'charging' job. Throws only what is worth trying again (the ledger
 * unreachable, the database down): the job stays 'charging' and the sweeper tries later.
 */
export async function settleCharge(deps: ChargeDeps, imageId: string, at: Date): Promise<ChargeOutcome> {
  const { pool, ledger, policy } = deps;
  const [image, job] = await Promise.all([findImage(pool, imageId), loadJob(pool, imageId)]);
  if (!image?.userId || job?.state.status !== 'charging') return { kind: 'settled-before', image };
  const userId = image.userId;

  let charged = 0;
  let balance: number | undefined;
  let locked = true;
  try {
    ({ charged, balance } = await ledger.spend(userId, imageId, 'enhancement'));
    locked = false;
  } catch (error) {
    if (error instanceof AppError && error.code === 'INSUFFICIENT_TOKENS') {
      balance = typeof error.details.balance === 'number' ? error.details.balance : undefined;
    } else if (isFinalRefusal(error)) {
      return refuse(deps, image, error.message, at);
    } else {
      throw error;
    }
  }

  const queued = await withTransaction(pool, async (tx) => {
    const decision = await applyJob(tx, imageId, { type: 'ChargeSettled', at }, policy);
    if (decision?.type !== 'Queued') return false;
    await tx.query(
      `UPDATE images SET is_locked = $2, charged_tokens = $3, unlocked_via = $4, updated_at = $5 WHERE image_id = $1`,
      [imageId, locked, charged, locked ? null : 'charged', at],
    );
    await enqueueOutbox(tx, [
      generationRequested({ ...image, contentType: image.originalType, locked, tokensCharged: charged, userId }, at),
    ]);
    return true;
  });
  if (queued) return { kind: 'queued', charged, balance, locked };

  // Another settler won. If it recorded no charge (it saw too few tokens) but this spend took
  // some (tokens arrived in between), give them back: the image is what the winner recorded.
  const now = await findImage(pool, imageId);
  if (charged > 0 && (!now || now.chargedTokens === 0)) await ledger.refund(userId, imageId);
  return { kind: 'settled-before', image: now };
}

async function refuse(deps: ChargeDeps, image: StoredImage, message: string, at: Date): Promise<ChargeOutcome> {
  await withTransaction(deps.pool, async (tx) => {
    const decision = await applyJob(
      tx,
      image.imageId,
      { type: 'ChargeRefused', at, code: 'CHARGE_REFUSED', message },
      deps.policy,
    );
    if (decision?.type !== 'Failed') return;
    await failImage(tx, image.imageId, 'CHARGE_REFUSED', message, at);
    await enqueueOutbox(tx, [
      generationFailed(image, { reasonCode: 'CHARGE_REFUSED', reason: message, attempts: 0, refundDue: false }, at),
    ]);
  });
  return { kind: 'refused', message };
}

/** Jobs left 'charging' for longer than `graceMs`: their request died, or could not finish. */
export async function unsettledCharges(q: Queryable, now: Date, graceMs: number, limit = 50): Promise<string[]> {
  const { rows } = await q.query<{ image_id: string }>(
    `SELECT image_id FROM generation_jobs
     WHERE status = 'charging' AND updated_at <= $1::timestamptz - $2::int * interval '1 millisecond'
     ORDER BY updated_at LIMIT $3`,
    [now, graceMs, limit],
  );
  return rows.map((r) => r.image_id);
}

export type UnlockOutcome =
  | { kind: 'unlocked'; charged: number; balance: number | undefined; image: StoredImage }
  /** Nothing pending for this user (unlocked before, claimed by another, or gone). */
  | { kind: 'not-pending'; charged: number; balance: number | undefined; image: StoredImage | undefined };

/**
 * Records that `userId` is unlocking the image with tokens (its owner, or a signed-in user claiming
 * a guest's try), before the ledger is asked: false when another unlock or claim is pending, or
 * the image is not there to unlock (unlocked, claimed by someone else).
 */
export async function recordUnlock(q: Queryable, imageId: string, userId: string, at: Date): Promise<boolean> {
  const r = await q.query(
    `UPDATE images SET unlock_pending_user = $2, unlock_pending_at = $3
     WHERE image_id = $1 AND status = 'completed'
       AND (is_locked OR user_id IS NULL) AND (user_id = $2 OR user_id IS NULL)
       AND (unlock_pending_user IS NULL OR unlock_pending_user = $2)`,
    [imageId, userId, at],
  );
  return r.rowCount === 1;
}

const clearUnlock = (q: Queryable, imageId: string, userId: string) =>
  q.query(
    `UPDATE images SET unlock_pending_user = NULL, unlock_pending_at = NULL
     WHERE image_id = $1 AND unlock_pending_user = $2`,
    [imageId, userId],
  );

/**
 * Finishes a recorded unlock: the ledger's spend for the unlock (keyed by the image id, so a repeat
 * takes nothing more and still succeeds), then, in one transaction, the image unlocked (a guest's
 * try moved into the user's gallery) with its ImageUnlocked event and the record cleared. Too few
 * tokens, or a refusal for good: the record is cleared and the refusal thrown; the image stays as
 * it was. Anything else is thrown with the record kept, for the sweeper to finish.
 */
export async function settleUnlock(
  deps: Pick<ChargeDeps, 'pool' | 'ledger'>,
  imageId: string,
  userId: string,
  unlocked: (tx: Queryable, image: StoredImage, charged: number) => Promise<void>,
): Promise<UnlockOutcome> {
  const { pool, ledger } = deps;
  let spent: { charged: number; balance: number };
  try {
    spent = await ledger.spend(userId, imageId, 'unlock');
  } catch (error) {
    if (error instanceof AppError && (error.code === 'INSUFFICIENT_TOKENS' || isFinalRefusal(error)))
      await clearUnlock(pool, imageId, userId);
    throw error;
  }
  return withTransaction(pool, async (tx) => {
    const image = await findImage(tx, imageId, true);
    // Another request of the same unlock (a double click) finished it first. What this one's spend
    // took is still what it reports: the ledger answers the charge to the first spend only.
    if (image?.unlockPendingUser !== userId)
      return { kind: 'not-pending', charged: spent.charged, balance: spent.balance, image } as const;
    await unlocked(tx, image, spent.charged);
    await clearUnlock(tx, imageId, userId);
    return { kind: 'unlocked', charged: spent.charged, balance: spent.balance, image } as const;
  });
}

/** Unlocks recorded longer than `graceMs` ago and not finished: their request died. */
export async function pendingUnlocks(q: Queryable, now: Date, graceMs: number, limit = 50) {
  const { rows } = await q.query<{ image_id: string; unlock_pending_user: string }>(
    `SELECT image_id, unlock_pending_user FROM images
     WHERE unlock_pending_at <= $1::timestamptz - $2::int * interval '1 millisecond'
     ORDER BY unlock_pending_at LIMIT $3`,
    [now, graceMs, limit],
  );
  return rows.map((r) => ({ imageId: r.image_id, userId: r.unlock_pending_user }));
}
