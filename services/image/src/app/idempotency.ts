import { keyedUuid } from '@flatlay/platform';

// Idempotency keys (an `Idempotency-Key` header, as Stripe's API takes them; the rule is the
// platform's checkIdempotencyKey): a request sent again with the same key must not make a second
// image or take a second charge. The key is turned into the image id itself, so the image row's
// primary key and the ledger's spend (keyed by image id) both refuse a duplicate, with no separate
// table of keys to keep or expire.

/** The image id a caller's key stands for: the same caller and key always name the same image. */
export const idempotentImageId = (scope: string, key: string): string => keyedUuid(`image:${scope}\n${key}`);
