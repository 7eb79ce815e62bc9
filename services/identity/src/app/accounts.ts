import { randomUUID } from 'node:crypto';
import { AppError, enqueueMail, withTransaction, type Logger, type Pool, type Queryable } from '@flatlay/platform';
import {
  applySubscriptionFact,
  consentRecord,
  consentVersionProblem,
  deletionConfirmationProblem,
  displayName,
  emailProblem,
  INVALID_ADMIN_LOGIN,
  INVALID_LOGIN,
  isUnlimited,
  normalizeEmail,
  PASSWORD_TOO_LONG,
  passwordProblem,
  passwordTooLong,
  planName,
  samePlan,
  type SubscriptionFact,
} from '../domain/index.js';
import { type AccessTokens, unauthenticated, type AccessClaims, type Role } from './access-tokens.js';
import { accountForExternalSignIn } from './external-sign-in.js';
import type { ExternalVerifier } from '../adapters/external-verifiers.js';
import type { Passwords } from './passwords.js';
import type { Revocations } from '../adapters/revocations.js';
import { queueLinkMail } from './link-mail.js';
import { userEvents } from './user-events.js';
import { userStore, type UserRow } from '../adapters/user-store.js';

export interface Profile {
  id: string;
  email: string;
  role: Role;
  firstName: string;
  lastName: string;
  name: string;
  avatarUrl: string;
  stripeCustomerId: string;
  stripeSubscriptionId: string;
  subscriptionPlan: string;
  subscriptionStatus: string;
  subscriptionPlanName: string;
  subscriptionPeriodEnd: Date | undefined;
  isUnlimited: boolean;
  emailVerified: boolean;
  createdAt: Date;
}

/** A signed access token and the profile. The balance is the ledger's: the gateway asks it. */
export interface Session {
  accessToken: string;
  user: Profile;
}

export interface AccountsDeps {
  pool: Pool;
  logger: Logger;
  passwords: Passwords;
  tokens: AccessTokens;
  revocations: Revocations;
  google: ExternalVerifier;
  supabase: ExternalVerifier;
  clock?: () => Date;
}

const invalid = (message: string) => new AppError('INVALID_ARGUMENT', message);
export const SESSION_ENDED = 'the session has ended. Please sign in again.';
const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** The identity service's use cases: accounts, credentials, sessions and profiles. */
export class Accounts {
  private readonly clock: () => Date;

  constructor(private readonly deps: AccountsDeps) {
    this.clock = deps.clock ?? (() => new Date());
  }

  profileOf(u: UserRow): Profile {
    return {
      id: u.id,
      email: u.email,
      role: u.role,
      firstName: u.firstName,
      lastName: u.lastName,
      name: displayName(u.firstName, u.lastName, u.email),
      avatarUrl: u.avatarUrl,
      stripeCustomerId: u.stripeCustomerId,
      stripeSubscriptionId: u.stripeSubscriptionId,
      subscriptionPlan: u.plan.plan,
      subscriptionStatus: u.plan.status,
      subscriptionPlanName: planName(u.plan.plan),
      subscriptionPeriodEnd: u.plan.periodEnd ?? undefined,
      isUnlimited: isUnlimited(u.plan.plan, u.plan.status, u.plan.periodEnd, this.clock()),
      emailVerified: u.emailVerified,
      createdAt: u.createdAt,
    };
  }

  /**
   * A password account; its address is not verified until the link e-mailed with it is used.
   * `consentVersion`: the consent text the person was shown, recorded with the time (ADR 0804).
   */
  async register(rawEmail: string, password: string, consentVersion = ''): Promise<Session> {
    const problem = emailProblem(rawEmail) ?? passwordProblem(password) ?? consentVersionProblem(consentVersion);
    if (problem) throw invalid(problem);
    const email = normalizeEmail(rawEmail);
    const taken = () => new AppError('ALREADY_EXISTS', 'An account with this email already exists');
    if (await userStore.byEmail(this.deps.pool, email)) throw taken();
    const passwordHash = await this.deps.passwords.hash(password);
    const now = this.clock();
    const id = randomUUID();
    await withTransaction(this.deps.pool, async (tx) => {
      if (
        !(await userStore.insert(tx, {
          id,
          email,
          emailVerified: false,
          passwordHash,
          firstName: '',
          lastName: '',
          avatarUrl: '',
          consent: consentRecord(consentVersion, now),
          now,
        }))
      )
        throw taken();
      await userEvents.registered(tx, { id, email }, 'password', now);
      // The welcome e-mail asks the person to prove the address (ADR 0402).
      await queueLinkMail(tx, { userId: id, email, purpose: 'verify-email', kind: 'verify-email' }, now);
    });
    return this.session((await userStore.byId(this.deps.pool, id))!);
  }

  async login(rawEmail: string, password: string): Promise<Session> {
    if (!text(rawEmail).trim() || !password) throw invalid('Email and password are required');
    if (passwordTooLong(password)) throw invalid(PASSWORD_TOO_LONG);
    const user = await userStore.byEmail(this.deps.pool, normalizeEmail(rawEmail));
    // Unknown e-mail and wrong password: the same work and the same answer.
    const ok = await this.deps.passwords.check(password, user?.passwordHash);
    if (!user || !ok) throw new AppError('UNAUTHENTICATED', INVALID_LOGIN);
    // The token carries the sessions instant read with the hash it was checked against: a
    // password change that lands meanwhile ends it too.
    return this.session(user);
  }

  async adminLogin(username: string, password: string): Promise<string> {
    if (!text(username).trim() || !password) throw invalid('Please enter both email and password');
    if (passwordTooLong(password)) throw invalid(PASSWORD_TOO_LONG);
    const user = await userStore.byEmail(this.deps.pool, normalizeEmail(username));
    const ok = await this.deps.passwords.check(password, user?.passwordHash);
    if (!user || !ok || user.role !== 'admin') throw new AppError('UNAUTHENTICATED', INVALID_ADMIN_LOGIN);
    return (await this.deps.tokens.issue(user.id, 'admin', user.sessionsValidAfter, this.clock())).token;
  }

  /** `consentVersion` is recorded only when this sign-in creates the account (ADR 0804). */
  async loginWithGoogle(idToken: string, consentVersion = ''): Promise<Session> {
    if (!idToken) throw invalid('idToken is required');
    const problem = consentVersionProblem(consentVersion);
    if (problem) throw invalid(problem);
    const claims = await this.deps.google.verify(idToken);
    return this.session(await accountForExternalSignIn(this.deps, claims, this.clock(), consentVersion));
  }

  async loginWithSupabase(
    accessToken: string,
    given: { userId: string; email: string; name: string; avatarUrl: string },
  ): Promise<Session> {
    const claims = await this.deps.supabase.verify(accessToken);
    if (given.userId && given.userId !== claims.subject)
      throw unauthenticated('the Supabase token belongs to another user');
    // The token's claims win; the client's fields only fill what the token leaves empty.
    const profile = {
      ...claims,
      fullName: claims.fullName || given.name,
      avatarUrl: claims.avatarUrl || given.avatarUrl,
    };
    return this.session(await accountForExternalSignIn(this.deps, profile, this.clock()));
  }

  /**
   * Changes the password of a signed-in person who knows the current one. Every earlier session
   * ends (on every device); the answer is a fresh session for the caller.
   */
  async changePassword(userId: string, currentPassword: string, newPassword: string): Promise<Session> {
    if (!userId) throw invalid('userId is required');
    if (!currentPassword) throw invalid('The current password is required');
    if (passwordTooLong(currentPassword)) throw invalid(PASSWORD_TOO_LONG);
    const problem = passwordProblem(newPassword);
    if (problem) throw invalid(problem);
    await this.confirmedUser(userId, currentPassword, 'The current password is not correct');
    return this.setPassword(userId, newPassword);
  }

  /**
   * The account of a signed-in person who confirmed a change with their password. Refused as
   * UNPROCESSABLE (422), never UNAUTHENTICATED: the caller's session is fine, only what they typed
   * is not (and an account made by an external sign-in has no password to type yet).
   */
  async confirmedUser(
    userId: string,
    password: string,
    wrongMessage = 'The password is not correct',
  ): Promise<UserRow> {
    const user = await userStore.byId(this.deps.pool, userId);
    if (!user) throw new AppError('NOT_FOUND', 'User not found');
    if (!user.passwordHash)
      throw new AppError(
        'UNPROCESSABLE',
        'Your account signs in with Google or Supabase and has no password. Set one first with "Forgot password?" on the sign-in page.',
      );
    if (!(await this.deps.passwords.check(password, user.passwordHash)))
      throw new AppError('UNPROCESSABLE', wrongMessage);
    return user;
  }

  /** Sets a new password (for callers that already proved who the person is) and ends every earlier session. */
  async setPassword(userId: string, newPassword: string): Promise<Session> {
    const problem = passwordProblem(newPassword);
    if (problem) throw invalid(problem);
    const passwordHash = await this.deps.passwords.hash(newPassword);
    const now = this.clock();
    const user = await withTransaction(this.deps.pool, async (tx) => {
      const u = await userStore.byId(tx, userId, true);
      if (!u) throw new AppError('NOT_FOUND', 'User not found');
      await userStore.setPassword(tx, userId, passwordHash, now);
      return { ...u, passwordHash, sessionsValidAfter: await userStore.endSessions(tx, userId, now) };
    });
    return this.session(user);
  }

  /** The claims of a valid access token whose user still exists and which is not revoked. */
  async verify(token: string): Promise<AccessClaims> {
    const now = this.clock();
    const claims = await this.deps.tokens.verify(token, now);
    if (this.deps.revocations.isKnownRevoked(claims.tokenId, now)) throw unauthenticated('token revoked');
    const facts = await userStore.sessionFacts(this.deps.pool, claims.userId, claims.tokenId);
    if (facts.revoked) {
      this.deps.revocations.remember(claims.tokenId, claims.expiresAt);
      throw unauthenticated('token revoked');
    }
    if (!facts.role) throw unauthenticated('the account no longer exists');
    // Sessions were ended after this token was issued (password change, takeover).
    if (facts.sessionsValidAfter && claims.sessionsValidAfter < facts.sessionsValidAfter.getTime())
      throw unauthenticated(SESSION_ENDED);
    // An admin token works only while the account still has the admin role.
    return { ...claims, role: claims.role === 'admin' && facts.role === 'admin' ? 'admin' : 'user' };
  }

  /** Logout: revokes the token until it would expire. An expired or already revoked token is fine. */
  async revoke(token: string): Promise<boolean> {
    const claims = await this.deps.tokens.verifyIgnoringExpiry(token);
    if (!claims) throw unauthenticated('the token is malformed or was not issued here');
    const now = this.clock();
    if (claims.expiresAt.getTime() <= now.getTime()) return false;
    return this.deps.revocations.revoke(claims.tokenId, claims.userId, claims.expiresAt, now);
  }

  async profile(userId: string): Promise<Profile> {
    if (!userId) throw invalid('userId is required');
    const user = await userStore.byId(this.deps.pool, userId);
    if (!user) throw new AppError('NOT_FOUND', 'User not found');
    return this.profileOf(user);
  }

  /** Removes credentials and personal data; the user's tokens stop working at once (the user is gone). */
  async deleteUser(by: { userId?: string; email?: string }): Promise<string> {
    const { pool } = this.deps;
    const user = by.userId
      ? await userStore.byId(pool, by.userId)
      : by.email
        ? await userStore.byEmail(pool, normalizeEmail(by.email))
        : undefined;
    if (!by.userId && !by.email) throw invalid('userId or email is required');
    if (!user) throw new AppError('NOT_FOUND', 'User not found');
    // A business refusal, not a permission problem: the operator's own session is fine.
    if (user.role === 'admin') throw new AppError('CONFLICT', 'Administrator accounts cannot be deleted');
    const now = this.clock();
    await withTransaction(pool, async (tx) => {
      if (!(await userStore.delete(tx, user.id))) throw new AppError('NOT_FOUND', 'User not found');
      await userEvents.forget(tx, user.id);
      await userEvents.deleted(tx, user.id, now);
      // The owner is told at the address the account had (by whoever deleted it).
      await enqueueMail(tx, { kind: 'account-deleted', recipient: user.email });
    });
    return user.id;
  }

  /**
   * The person deletes their own account: their password and the typed confirmation, then the
   * administrator's deletion (every service removes its part from UserDeleted). An account with
   * no password (Google or Supabase only) sets one first through "Forgot password?".
   */
  async deleteOwnAccount(userId: string, password: string, confirmation: string): Promise<string> {
    const typed = deletionConfirmationProblem(confirmation);
    if (typed) throw invalid(typed);
    if (!password) throw invalid('Your password is required to delete your account');
    if (passwordTooLong(password)) throw invalid(PASSWORD_TOO_LONG);
    await this.confirmedUser(userId, password);
    return this.deleteUser({ userId });
  }

  /** Applies one of billing's subscription facts to the user's plan fields (inside the consumer's inbox transaction). */
  async applySubscriptionFact(
    tx: Queryable,
    userId: string,
    fact: SubscriptionFact,
    customerId?: string,
  ): Promise<boolean> {
    const user = await userStore.byId(tx, userId, true);
    if (!user) return false; // deleted, or never here: nothing to keep
    // A customer id never changes meaning, so it is kept even from an event too old to move the plan.
    if (customerId && customerId !== user.stripeCustomerId)
      await userStore.setCustomer(tx, userId, customerId, this.clock());
    const next = applySubscriptionFact(user.plan, fact);
    if (!next) return false;
    const now = this.clock();
    await userStore.updatePlan(tx, userId, next, now);
    if (!samePlan(user.plan, next)) await userEvents.planChanged(tx, userId, next, now);
    return true;
  }

  private async session(user: UserRow): Promise<Session> {
    const issued = await this.deps.tokens.issue(user.id, 'user', user.sessionsValidAfter, this.clock());
    return { accessToken: issued.token, user: this.profileOf(user) };
  }
}
