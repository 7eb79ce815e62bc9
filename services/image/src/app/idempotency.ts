import { AppError, keyedUuid } from '@flatlay/platform';

// Idempotency keys (an `Idempotency-Key` header, as Stripe's API takes them): a request sent again
// with the same key must not make a second image or take a second charge. The key is turned into
// the image id itself, so the image row's primary key and the ledger's spend (keyed by image id)
// both refuse a duplicate, with no separate table of keys to keep or expire.

const KEY_RULE = /^[\x21-\x7e]{1,255}$/;

/** The key, or undefined for none; a malformed one is refused (it would silently not protect). */
export function checkIdempotencyKey(key: string | undefined): string | undefined {
  if (!key) return undefined;
  if (!KEY_RULE.test(key))
    throw new AppError('INVALID_ARGUMENT', 'Idempotency-Key must be 1 to 255 visible ASCII characters');
  return key;
}

/** The image id a caller's key stands for: the same caller and key always name the same image. */
export const idempotentImageId = (scope: string, key: string): string => keyedUuid(`image:${scope}\n${key}`);
