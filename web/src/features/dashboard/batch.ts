import type { PostAnswer, Schema } from '../../api/schema';

/** POST /api/images/batch takes this many photos in one request (the document's maxItems). */
export const BATCH_MAX_FILES = 20;

/** One photo of a batch, from picked to its result. */
export type BatchRow =
  | { key: string; name: string; size: number; phase: 'uploading'; percent: number }
  | { key: string; name: string; size: number; phase: 'processing'; imageId: string }
  | { key: string; name: string; size: number; phase: 'done'; imageId: string; resultUrl: string }
  | { key: string; name: string; size: number; phase: 'locked'; imageId: string; previewUrl: string }
  | { key: string; name: string; size: number; phase: 'failed'; message: string };

export type BatchAnswer = PostAnswer<'/images/batch'>;

/**
 * Each file's share of one multipart upload, in percent. The files travel in the order they were
 * appended, so the bytes sent so far fill the first file, then the next: scaled from the whole
 * body (whose part headers are small beside photos) onto the files' sizes, each file's bar moves
 * while its own bytes are on the wire, and all are full when the body is.
 */
export function fileShares(sizes: number[], loaded: number, total: number): number[] {
  const sum = sizes.reduce((a, b) => a + b, 0);
  if (total <= 0 || sum <= 0) return sizes.map(() => 0);
  const sent = loaded >= total ? sum : (loaded / total) * sum;
  let start = 0;
  return sizes.map((size) => {
    const share = size > 0 ? (sent - start) / size : 1;
    start += size;
    return Math.round(Math.min(1, Math.max(0, share)) * 100);
  });
}

/** The rows once the server has taken the batch: one image per file, in the order sent. */
export function rowsFromAnswer(rows: BatchRow[], answer: BatchAnswer): BatchRow[] {
  return rows.map((row, i) => {
    const g = answer.images[i];
    const base = { key: row.key, name: row.name, size: row.size };
    if (!g) return { ...base, phase: 'failed', message: 'The server did not answer for this photo' };
    // Locked images are still made: their preview arrives with the status, like an unlocked result.
    return { ...base, phase: 'processing', imageId: g.image_id };
  });
}

/** What one look at an image's status changes in its row (null: still processing). */
export function rowFromStatus(
  row: Extract<BatchRow, { phase: 'processing' }>,
  s: Schema<'ImageStatus'>,
): BatchRow | null {
  const base = { key: row.key, name: row.name, size: row.size };
  if (s.status === 'failed') return { ...base, phase: 'failed', message: s.error || 'Image processing failed' };
  if (s.status !== 'completed') return null;
  if (s.is_locked) return { ...base, phase: 'locked', imageId: row.imageId, previewUrl: s.preview_url ?? '' };
  if (s.processed_url) return { ...base, phase: 'done', imageId: row.imageId, resultUrl: s.processed_url };
  return null;
}
