import { randomUUID } from 'node:crypto';
import { enqueueMail, type Queryable } from '@flatlay/platform';
import { LINK_LIFETIME_MS, type LinkPurpose } from '../domain/index.js';
import { linkStore } from '../adapters/link-store.js';
import type { AccountMailKind } from './account-mail.js';

/**
 * A link e-mailed to `email` and its message, in the caller's transaction: both commit or neither.
 * The newest link of a purpose replaces the older ones (only the latest e-mail works).
 */
export async function queueLinkMail(
  tx: Queryable,
  link: { userId: string; email: string; purpose: LinkPurpose; kind: AccountMailKind },
  now: Date,
): Promise<void> {
  const id = randomUUID();
  await linkStore.insert(tx, {
    id,
    userId: link.userId,
    purpose: link.purpose,
    email: link.email,
    createdAt: now,
    expiresAt: new Date(now.getTime() + LINK_LIFETIME_MS[link.purpose]),
  });
  await linkStore.retireOthers(tx, link.userId, link.purpose, id, now);
  await enqueueMail(tx, { kind: link.kind, recipient: link.email, params: { linkId: id } });
}
