import { createHash } from 'node:crypto';

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
