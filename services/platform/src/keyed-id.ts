import { createHash } from 'node:crypto';
import { AppError } from './errors.js';

/**
 * A UUID (RFC 9562 version 8, "custom") made from a name: the same name always gives the same id.
 * Idempotency keys become the ids that charges and credits are keyed by (an image id, an
 * adjustment id), so the stores that already refuse a duplicate id refuse a repeated request too.
 * Callers put who is asking into the name, so two callers' keys never meet.
 */
export function keyedUuid(name: string): string {
  const h = createHash('sha256').update(name).digest();
  h[6] = (h[6]! & 0x0f) | 0x80;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** An `Idempotency-Key` (as Stripe's API takes them): 1 to 255 visible ASCII characters. */
export const IDEMPOTENCY_KEY_RULE = /^[\x21-\x7e]{1,255}$/;
export const IDEMPOTENCY_KEY_MESSAGE =
  'Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID per user action is a good key)';

/**
 * The key, or undefined for none. A malformed one is refused rather than ignored: a key that
 * silently did not protect would charge twice on the retry it was sent to prevent. The gateway
 * checks the header before any handler runs; a service checks again for its gRPC callers.
 */
export function checkIdempotencyKey(key: string | undefined): string | undefined {
  if (!key) return undefined;
  if (!IDEMPOTENCY_KEY_RULE.test(key)) throw new AppError('INVALID_ARGUMENT', IDEMPOTENCY_KEY_MESSAGE);
  return key;
}
