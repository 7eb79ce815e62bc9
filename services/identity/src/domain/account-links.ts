// The rules of the links the product sends by e-mail (ADR 0402): what each is for, how long it
// lives, and whether one may still be used. Pure: the store and the signer are the app's.

export type LinkPurpose = 'verify-email' | 'reset-password' | 'change-email';

/** How long a link works: a day to verify an address (mail can wait in a spam folder), an hour to reset a password. */
export const LINK_LIFETIME_MS: Record<LinkPurpose, number> = {
  'verify-email': 24 * 3600_000,
  'reset-password': 3600_000,
  'change-email': 24 * 3600_000,
};

/**
 * At most this many reset e-mails reach one address in an hour. The gateway limits each client
 * IP; this bounds what many IPs together can pour into one person's mailbox (and the mail
 * server's reputation). The caller is answered the same either way: a refusal would tell that
 * the address has an account.
 */
export const RESET_MAILS_PER_HOUR = 3;

/** Whether another reset e-mail may go to an address that was sent `sentInLastHour` of them. */
export const mayMailReset = (sentInLastHour: number): boolean => sentInLastHour < RESET_MAILS_PER_HOUR;

export interface LinkState {
  purpose: LinkPurpose;
  expiresAt: Date;
  usedAt: Date | null;
}

/** What the person is told when a link no longer works, and what to do next. */
export const LINK_REFUSALS: Record<LinkPurpose, string> = {
  'verify-email':
    'This verification link has expired or was already used. Sign in and ask for a new one from your account page.',
  'reset-password':
    'This password reset link has expired or was already used. Ask for a new one from the sign-in page.',
  'change-email':
    'This link to confirm your new e-mail address has expired or was already used. Ask for a new one from your account page.',
};

/** Undefined when the link may be used now for `purpose`; otherwise what is wrong with it. */
export function linkProblem(link: LinkState | undefined, purpose: LinkPurpose, now: Date): string | undefined {
  if (!link || link.purpose !== purpose) return LINK_REFUSALS[purpose];
  if (link.usedAt) return LINK_REFUSALS[purpose];
  if (link.expiresAt.getTime() <= now.getTime()) return LINK_REFUSALS[purpose];
  return undefined;
}

/** Where each link leads in the web app (the page reads the token and calls the API). */
export const LINK_PAGES: Record<LinkPurpose, string> = {
  'verify-email': '/auth/verify-email',
  'reset-password': '/auth/reset-password',
  'change-email': '/auth/confirm-email',
};
