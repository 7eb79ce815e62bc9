// The Idempotency-Key request header of the operations that charge or credit (ADR 0104). The web
// app sends a fresh key per user action, so a request retried by the network, a proxy or a second
// click charges or credits once; the services turn the key into the id the charge is keyed by.
import type { Request } from 'express';
import { z } from 'zod';
import { AppError, IDEMPOTENCY_KEY_MESSAGE, IDEMPOTENCY_KEY_RULE } from '@flatlay/platform';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** As the document declares it (an optional header parameter). */
export const idempotencyKeyHeader = z.object({
  [IDEMPOTENCY_KEY_HEADER]: z.string().regex(IDEMPOTENCY_KEY_RULE, { error: IDEMPOTENCY_KEY_MESSAGE }).optional().meta({
    description:
      'A key of your choosing, new for each action (a UUID): the same request sent again with the same key charges or credits once and answers as the first did',
  }),
});

/** Refuses a malformed key (400) before the handler runs; an absent one is fine. */
export function checkIdempotencyKeyHeader(req: Request): void {
  const key = req.headers['idempotency-key'];
  if (key === undefined) return;
  // Sent empty or twice is malformed too: it must not pass as "no key".
  if (typeof key !== 'string' || !IDEMPOTENCY_KEY_RULE.test(key))
    throw new AppError('INVALID_ARGUMENT', IDEMPOTENCY_KEY_MESSAGE);
}

/** The request's key, '' when none was sent. */
export const idempotencyKeyOf = (req: Request): string => {
  const key = req.headers['idempotency-key'];
  return typeof key === 'string' ? key : '';
};
