// One Idempotency-Key per user action (ADR 0104): a click that charges or credits sends a new key,
// and anything that sends that request again (a retry, a proxy, a double submit of the same action)
// sends the same key, so the server charges or credits once.

/** A fresh random key (a UUID; crypto.randomUUID is missing outside secure contexts). */
export function newActionKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** The header of one action, for the typed client's `headers`. */
export const actionKeyHeader = (key = newActionKey()) => ({ [IDEMPOTENCY_HEADER]: key });
