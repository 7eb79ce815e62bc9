import type { Queryable } from '@flatlay/platform';
import type { ImageRecord, ImageStatus } from '../domain/index.js';

// The images table: one row per user's image or guest's try (SQL only, no rules).

export interface GenerationOptions {
  background: string;
  shadow: boolean;
  size: number;
  format: string;
  transparent: boolean;
  preset: string;
}

export interface StoredImage extends ImageRecord {
  guestEmail: string | null;
  enhancementType: string;
  options: GenerationOptions;
  originalType: string;
  chargedTokens: number;
  refund: 'due' | 'done' | 'not_possible' | null;
  /** Who is unlocking it with tokens right now (ADR 0104): recorded before the ledger's spend. */
  unlockPendingUser: string | null;
  /** A subscriber's advanced-prompting instruction (#28); null: none. */
  instruction: string | null;
}

export type NewImage = Omit<
  StoredImage,
  'status' | 'resultKey' | 'previewKey' | 'refund' | 'unlockPendingUser' | 'instruction'
> & {
  instruction?: string | null;
  originalBytes: number;
  /** A guest's client, as the gateway names it (a keyed hash of its address); absent for a user's image. */
  guestClient?: string | null;
};

const COLUMNS = `image_id, user_id, guest_email, enhancement_type, options, original_key, original_type, status,
  is_locked, charged_tokens, result_key, preview_key, refund, unlock_pending_user, created_at,
  instruction`;

interface Row {
  image_id: string;
  user_id: string | null;
  guest_email: string | null;
  enhancement_type: string;
  options: GenerationOptions;
  original_key: string;
  original_type: string;
  status: ImageStatus;
  is_locked: boolean;
  charged_tokens: string;
  result_key: string | null;
  preview_key: string | null;
  refund: 'due' | 'done' | 'not_possible' | null;
  unlock_pending_user: string | null;
  created_at: Date;
  instruction: string | null;
}

const fromRow = (r: Row): StoredImage => ({
  imageId: r.image_id,
  userId: r.user_id,
  guestEmail: r.guest_email,
  enhancementType: r.enhancement_type,
  options: r.options,
  originalKey: r.original_key,
  originalType: r.original_type,
  status: r.status,
  isLocked: r.is_locked,
  chargedTokens: Number(r.charged_tokens),
  resultKey: r.result_key,
  previewKey: r.preview_key,
  refund: r.refund,
  unlockPendingUser: r.unlock_pending_user,
  createdAt: r.created_at,
  instruction: r.instruction,
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Image ids are UUIDs; anything else names no image (and must not reach a uuid column). */
export const isImageId = (id: string) => UUID.test(id);

/** Records a new image; false when one with this id exists (an idempotency key sent twice at once). */
export async function insertImage(q: Queryable, image: NewImage): Promise<boolean> {
  const r = await q.query(
    `INSERT INTO images (image_id, user_id, guest_email, enhancement_type, options, original_key, original_type,
       original_bytes, status, is_locked, charged_tokens, unlocked_via, created_at, updated_at, guest_client, instruction)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'processing', $9, $10, $11, $12, $12, $13, $14)
     ON CONFLICT (image_id) DO NOTHING`,
    [
      image.imageId,
      image.userId,
      image.guestEmail,
      image.enhancementType,
      JSON.stringify(image.options),
      image.originalKey,
      image.originalType,
      image.originalBytes,
      image.isLocked,
      image.chargedTokens,
      image.isLocked ? null : 'charged',
      image.createdAt,
      image.guestClient || null,
      image.instruction ?? null,
    ],
  );
  return r.rowCount === 1;
}

export async function findImage(q: Queryable, imageId: string, forUpdate = false): Promise<StoredImage | undefined> {
  if (!isImageId(imageId)) return undefined;
  const { rows } = await q.query<Row>(
    `SELECT ${COLUMNS} FROM images WHERE image_id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [imageId],
  );
  return rows[0] && fromRow(rows[0]);
}

/** The user's image; undefined for someone else's, exactly as for a missing one. */
export async function findOwnedImage(q: Queryable, imageId: string, userId: string) {
  const image = await findImage(q, imageId);
  return image && image.userId === userId ? image : undefined;
}

export async function listImages(q: Queryable, userId: string, limit: number, offset: number) {
  const [page, count] = await Promise.all([
    q.query<Row>(
      `SELECT ${COLUMNS} FROM images WHERE user_id = $1 ORDER BY created_at DESC, image_id DESC LIMIT $2 OFFSET $3`,
      [userId, limit, offset],
    ),
    q.query<{ n: string }>('SELECT count(*) AS n FROM images WHERE user_id = $1', [userId]),
  ]);
  return { images: page.rows.map(fromRow), total: Number(count.rows[0]?.n ?? 0) };
}

/** Unlocks a locked image; false when it was unlocked already. */
export async function unlockImage(
  q: Queryable,
  imageId: string,
  via: 'tokens' | 'payment' | 'claim',
  at: Date,
  extra: { paymentId?: string; userId?: string } = {},
): Promise<boolean> {
  const r = await q.query(
    `UPDATE images SET is_locked = false, unlocked_via = $2, payment_id = COALESCE($3, payment_id),
       user_id = COALESCE($4, user_id), updated_at = $5
     WHERE image_id = $1 AND is_locked`,
    [imageId, via, extra.paymentId ?? null, extra.userId ?? null, at],
  );
  return r.rowCount === 1;
}

/** Moves a guest's try into a user's gallery (already unlocked by payment: still claimed). */
export async function claimGuestImage(q: Queryable, imageId: string, userId: string, at: Date): Promise<boolean> {
  const r = await q.query(
    `UPDATE images SET user_id = $2, is_locked = false, unlocked_via = COALESCE(unlocked_via, 'claim'), updated_at = $3
     WHERE image_id = $1 AND user_id IS NULL`,
    [imageId, userId, at],
  );
  return r.rowCount === 1;
}

export async function completeImage(
  q: Queryable,
  imageId: string,
  result: { resultKey: string; resultType: string; previewKey: string; width: number; height: number },
  at: Date,
): Promise<void> {
  await q.query(
    `UPDATE images SET status = 'completed', result_key = $2, result_type = $3, preview_key = $4, width = $5,
       height = $6, updated_at = $7
     WHERE image_id = $1`,
    [imageId, result.resultKey, result.resultType, result.previewKey, result.width, result.height, at],
  );
}

/** Marks the image failed; a charged one owes its refund until the ledger confirms it. */
export async function failImage(q: Queryable, imageId: string, code: string, reason: string, at: Date) {
  await q.query(
    `UPDATE images SET status = 'failed', failure_code = $2, failure_reason = $3, updated_at = $4,
       refund = CASE WHEN charged_tokens > 0 AND user_id IS NOT NULL THEN 'due' ELSE refund END
     WHERE image_id = $1`,
    [imageId, code, reason.slice(0, 500), at],
  );
}

export async function markRefunded(q: Queryable, imageId: string): Promise<void> {
  await q.query(`UPDATE images SET refund = 'done' WHERE image_id = $1`, [imageId]);
}

/** A refund the ledger refused for good: kept with the reason for the operator, not retried. */
export async function markRefundNotPossible(q: Queryable, imageId: string, reason: string): Promise<void> {
  await q.query(`UPDATE images SET refund = 'not_possible', refund_note = $2 WHERE image_id = $1`, [
    imageId,
    reason.slice(0, 500),
  ]);
}

/** Refunds the ledger refused for good, newest first (the admin API lists them). */
export async function refundsNotPossible(q: Queryable, limit = 100) {
  const { rows } = await q.query<{
    image_id: string;
    user_id: string | null;
    charged_tokens: string;
    refund_note: string | null;
    updated_at: Date;
  }>(
    `SELECT image_id, user_id, charged_tokens, refund_note, updated_at FROM images
     WHERE refund = 'not_possible' ORDER BY updated_at DESC LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({
    imageId: r.image_id,
    userId: r.user_id ?? '',
    tokens: Number(r.charged_tokens),
    reason: r.refund_note ?? '',
    at: r.updated_at,
  }));
}

export async function refundsDue(q: Queryable, limit = 50): Promise<Array<{ imageId: string; userId: string }>> {
  const { rows } = await q.query<{ image_id: string; user_id: string }>(
    `SELECT image_id, user_id FROM images WHERE refund = 'due' ORDER BY updated_at LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({ imageId: r.image_id, userId: r.user_id }));
}

/** Every blob a user's images use: originals, and the folder of results and previews. */
export async function blobsOfUser(q: Queryable, userId: string) {
  const { rows } = await q.query<{ image_id: string; original_key: string }>(
    'SELECT image_id, original_key FROM images WHERE user_id = $1',
    [userId],
  );
  return rows.map((r) => ({ imageId: r.image_id, originalKey: r.original_key }));
}

export async function deleteImagesOfUser(q: Queryable, userId: string): Promise<number> {
  const r = await q.query('DELETE FROM images WHERE user_id = $1', [userId]);
  return r.rowCount ?? 0;
}

/** Where a result and its preview are kept: one folder per image. */
export const imageFolder = (imageId: string) => `images/${imageId}/`;
