import { describe, expect, it } from 'vitest';
import { LINK_LIFETIME_MS, LINK_REFUSALS, linkProblem, mayMailReset, RESET_MAILS_PER_HOUR } from './account-links.js';

const now = new Date('2026-11-27T10:00:00Z');
const later = (ms: number) => new Date(now.getTime() + ms);

describe('account links', () => {
  it('a reset link lives an hour and a verification link a day', () => {
    expect(LINK_LIFETIME_MS['reset-password']).toBe(3600_000);
    expect(LINK_LIFETIME_MS['verify-email']).toBe(24 * 3600_000);
  });

  it('works once, before it expires, for its own purpose only', () => {
    const link = { purpose: 'reset-password' as const, expiresAt: later(1000), usedAt: null };
    expect(linkProblem(link, 'reset-password', now)).toBeUndefined();
    expect(linkProblem({ ...link, usedAt: now }, 'reset-password', now)).toBe(LINK_REFUSALS['reset-password']);
    expect(linkProblem(link, 'reset-password', later(1000))).toBe(LINK_REFUSALS['reset-password']);
    expect(linkProblem(link, 'verify-email', now)).toBe(LINK_REFUSALS['verify-email']);
    expect(linkProblem(undefined, 'change-email', now)).toBe(LINK_REFUSALS['change-email']);
  });
  it('lets at most RESET_MAILS_PER_HOUR reset e-mails go to one address in an hour', () => {
    expect([0, 1, 2, 3, 4].map(mayMailReset)).toEqual([true, true, true, false, false]);
    expect(RESET_MAILS_PER_HOUR).toBe(3);
  });
});
