import { AppError, enqueueMail, withTransaction, type Pool, type Queryable } from '@flatlay/platform';
import {
  emailProblem,
  LINK_REFUSALS,
  linkProblem,
  mayMailReset,
  normalizeEmail,
  PASSWORD_TOO_LONG,
  passwordProblem,
  passwordTooLong,
  type LinkPurpose,
} from '../domain/index.js';
import { linkStore } from '../adapters/link-store.js';
import { userStore } from '../adapters/user-store.js';
import type { Accounts, Profile } from './accounts.js';
import { queueLinkMail } from './link-mail.js';
import type { LinkTokens } from './link-tokens.js';
import type { Passwords } from './passwords.js';
import { userEvents } from './user-events.js';

const invalid = (message: string) => new AppError('INVALID_ARGUMENT', message);
/** A link that is not (or no longer) one to use: there is no such link to act on (404), and the message says what to do. */
const linkRefused = (message: string) => new AppError('NOT_FOUND', message);

export interface SelfServiceDeps {
  pool: Pool;
  accounts: Accounts;
  passwords: Passwords;
  links: LinkTokens;
  clock?: () => Date;
}

/**
 * What a person does for their own account by e-mail (ADR 0402): prove their address, get back in
 * with a reset link, move to a new address. Every link is single-use (its row), signed (its token)
 * and short-lived; every message leaves through the mail outbox of the same transaction.
 */
export class SelfService {
  private readonly clock: () => Date;

  constructor(private readonly deps: SelfServiceDeps) {
    this.clock = deps.clock ?? (() => new Date());
  }

  /** A fresh verification e-mail; false when the address is verified already (nothing is sent). */
  async requestEmailVerification(userId: string): Promise<boolean> {
    const user = await userStore.byId(this.deps.pool, userId);
    if (!user) throw new AppError('NOT_FOUND', 'User not found');
    if (user.emailVerified) return false;
    await withTransaction(this.deps.pool, (tx) =>
      queueLinkMail(tx, { userId, email: user.email, purpose: 'verify-email', kind: 'verify-email' }, this.clock()),
    );
    return true;
  }

  async verifyEmail(token: string): Promise<Profile> {
    return this.useLink(token, 'verify-email', async (tx, link, now) => {
      if (!(await userStore.markVerified(tx, link.userId, link.email, now)))
        throw linkRefused('This link was sent to an address your account no longer uses.');
    });
  }

  /**
   * Sends a reset link when the address has a (non-admin) account. The answer is the same either
   * way and the caller learns nothing; the gateway limits how often a client may ask.
   */
  async requestPasswordReset(rawEmail: string): Promise<void> {
    const problem = emailProblem(rawEmail);
    if (problem) throw invalid(problem);
    const user = await userStore.byEmail(this.deps.pool, normalizeEmail(rawEmail));
    // The operator's password comes from ADMIN_PASSWORD at each start: a reset would not last.
    if (!user || user.role === 'admin') return;
    const now = this.clock();
    await withTransaction(this.deps.pool, async (tx) => {
      // The user's row is locked so that requests at once count each other (RESET_MAILS_PER_HOUR).
      if (!(await userStore.byId(tx, user.id, true))) return;
      const sent = await linkStore.countSince(tx, user.id, 'reset-password', new Date(now.getTime() - 3600_000));
      if (!mayMailReset(sent)) return;
      await queueLinkMail(
        tx,
        { userId: user.id, email: user.email, purpose: 'reset-password', kind: 'reset-password' },
        now,
      );
    });
  }

  /** Sets the new password and ends every session; the link also proves the address. */
  async resetPassword(token: string, newPassword: string): Promise<void> {
    const problem = passwordProblem(newPassword);
    if (problem) throw invalid(problem);
    const passwordHash = await this.deps.passwords.hash(newPassword);
    await this.useLink(token, 'reset-password', async (tx, link, now) => {
      await userStore.setPassword(tx, link.userId, passwordHash, now);
      await userStore.endSessions(tx, link.userId, now);
      await userStore.markVerified(tx, link.userId, link.email, now);
    });
  }

  /** Sends a confirmation link to the new address; the account keeps its address until it is used. */
  async requestEmailChange(userId: string, password: string, rawNewEmail: string): Promise<void> {
    if (!password) throw invalid('Your current password is required to change your e-mail address');
    if (passwordTooLong(password)) throw invalid(PASSWORD_TOO_LONG);
    const problem = emailProblem(rawNewEmail);
    if (problem) throw invalid(problem);
    const newEmail = normalizeEmail(rawNewEmail);
    const user = await this.deps.accounts.confirmedUser(userId, password, 'The current password is not correct');
    if (newEmail === user.email) throw new AppError('CONFLICT', 'This is already your e-mail address');
    if (await userStore.byEmail(this.deps.pool, newEmail))
      throw new AppError('ALREADY_EXISTS', 'An account with this email already exists');
    await withTransaction(this.deps.pool, (tx) =>
      queueLinkMail(tx, { userId, email: newEmail, purpose: 'change-email', kind: 'confirm-new-email' }, this.clock()),
    );
  }

  /** Moves the account to the confirmed address, tells the old one, and tells the other services. */
  async confirmEmailChange(token: string): Promise<Profile> {
    return this.useLink(token, 'change-email', async (tx, link, now) => {
      const user = await userStore.byId(tx, link.userId, true);
      if (!user) throw new AppError('NOT_FOUND', 'User not found');
      const other = await userStore.byEmail(tx, link.email);
      if (other && other.id !== user.id)
        throw new AppError('ALREADY_EXISTS', 'An account with this email already exists');
      await userStore.changeEmail(tx, user.id, link.email, now);
      await enqueueMail(tx, { kind: 'email-changed', recipient: user.email, params: { newEmail: link.email } });
      await userEvents.profileChanged(tx, { ...user, email: link.email }, now);
    });
  }

  /** Uses a link once: its row is locked, checked and marked used with `work` in one transaction. */
  private async useLink(
    token: string,
    purpose: LinkPurpose,
    work: (tx: Queryable, link: { userId: string; email: string }, now: Date) => Promise<void>,
  ): Promise<Profile> {
    const id = await this.deps.links.linkId(token, purpose);
    if (!id) throw linkRefused(LINK_REFUSALS[purpose]);
    const now = this.clock();
    const userId = await withTransaction(this.deps.pool, async (tx) => {
      const link = await linkStore.byId(tx, id, true);
      const problem = linkProblem(link, purpose, now);
      if (problem || !link) throw linkRefused(problem ?? LINK_REFUSALS[purpose]);
      await linkStore.markUsed(tx, link.id, now);
      await work(tx, link, now);
      return link.userId;
    });
    return this.deps.accounts.profile(userId);
  }
}
