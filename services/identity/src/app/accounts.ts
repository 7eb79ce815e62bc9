import { randomUUID } from 'node:crypto';
import { AppError, withTransaction, type Logger, type Pool, type Queryable } from '@flatlay/platform';
import {
  applySubscriptionFact, cleanAvatarUrl, cleanProfileText, decideExternalSignIn, displayName, emailProblem, INVALID_ADMIN_LOGIN, INVALID_LOGIN,
  isUnlimited, normalizeEmail, passwordProblem, planName, samePlan, splitName, type SubscriptionFact,
} from '../domain/index.js';
import { AccessTokens, unauthenticated, type AccessClaims, type Role } from './access-tokens.js';
import type { ExternalProfile, ExternalVerifier } from './external-verifiers.js';
import type { Passwords } from './passwords.js';
import type { Revocations } from './revocations.js';
import type { TokenAccountsPort } from './token-accounts-port.js';
import { userEvents } from './user-events.js';
import { userStore, type UserRow } from './user-store.js';

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
  createdAt: Date;
}

export interface Session {
  accessToken: string;
  user: Profile;
  tokenBalance: number;
}

export interface AccountsDeps {
  pool: Pool;
  logger: Logger;
  passwords: Passwords;
  tokens: AccessTokens;
  revocations: Revocations;
  ledger: TokenAccountsPort;
  google: ExternalVerifier;
  supabase: ExternalVerifier;
  clock?: () => Date;
}

const invalid = (message: string) => new AppError('INVALID_ARGUMENT', message);
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
      createdAt: u.createdAt,
    };
  }

  async register(rawEmail: string, password: string): Promise<Session> {
    const problem = emailProblem(rawEmail) ?? passwordProblem(password);
    if (problem) throw invalid(problem);
    const email = normalizeEmail(rawEmail);
    const taken = () => new AppError('ALREADY_EXISTS', 'An account with this email already exists');
    if (await userStore.byEmail(this.deps.pool, email)) throw taken();
    const passwordHash = await this.deps.passwords.hash(password);
    const now = this.clock();
    const id = randomUUID();
    await withTransaction(this.deps.pool, async (tx) => {
      if (!(await userStore.insert(tx, { id, email, passwordHash, firstName: '', lastName: '', avatarUrl: '', now }))) throw taken();
      await userEvents.registered(tx, { id, email }, 'password', now);
    });
    const user = (await userStore.byId(this.deps.pool, id))!;
    return this.session(user, await this.openTokenAccount(id));
  }

  async login(rawEmail: string, password: string): Promise<Session> {
    if (!text(rawEmail).trim() || !password) throw invalid('Email and password are required');
    const user = await userStore.byEmail(this.deps.pool, normalizeEmail(rawEmail));
    // Unknown e-mail and wrong password: the same work and the same answer.
    const ok = await this.deps.passwords.check(password, user?.passwordHash);
    if (!user || !ok) throw new AppError('UNAUTHENTICATED', INVALID_LOGIN);
    return this.session(user, await this.deps.ledger.balance(user.id));
  }

  async adminLogin(username: string, password: string): Promise<string> {
    if (!text(username).trim() || !password) throw invalid('Please enter both email and password');
    const user = await userStore.byEmail(this.deps.pool, normalizeEmail(username));
    const ok = await this.deps.passwords.check(password, user?.passwordHash);
    if (!user || !ok || user.role !== 'admin') throw new AppError('UNAUTHENTICATED', INVALID_ADMIN_LOGIN);
    return (await this.deps.tokens.issue(user.id, 'admin', this.clock())).token;
  }

  async loginWithGoogle(idToken: string): Promise<Session> {
    if (!idToken) throw invalid('idToken is required');
    return this.externalSignIn(await this.deps.google.verify(idToken));
  }

  async loginWithSupabase(accessToken: string, given: { userId: string; email: string; name: string; avatarUrl: string }): Promise<Session> {
    const claims = await this.deps.supabase.verify(accessToken);
    if (given.userId && given.userId !== claims.subject) throw unauthenticated('the Supabase token belongs to another user');
    // The token's claims win; the client's fields only fill what the token leaves empty.
    return this.externalSignIn({ ...claims, fullName: claims.fullName || given.name, avatarUrl: claims.avatarUrl || given.avatarUrl });
  }

  private async externalSignIn(p: ExternalProfile, attempt = 1): Promise<Session> {
    const email = p.email ? normalizeEmail(p.email) : '';
    if (email && emailProblem(email)) throw unauthenticated('the sign-in token carries an invalid email address');
    const names = p.firstName || p.lastName ? { firstName: p.firstName, lastName: p.lastName } : splitName(p.fullName);
    const profile = { firstName: cleanProfileText(names.firstName), lastName: cleanProfileText(names.lastName), avatarUrl: cleanAvatarUrl(p.avatarUrl) };
    const { pool } = this.deps;
    const linked = await userStore.byExternalIdentity(pool, p.provider, p.subject);
    const byEmail = linked || !email ? undefined : await userStore.byEmail(pool, email);
    const decision = decideExternalSignIn({ ...p, email }, linked, byEmail);
    const now = this.clock();
    switch (decision.kind) {
      case 'refuse':
        throw new AppError(decision.code, decision.message);
      case 'create': {
        const id = randomUUID();
        const created = await withTransaction(pool, async (tx) => {
          if (!(await userStore.insert(tx, { id, email, passwordHash: null, ...profile, now }))) return false;
          await userStore.link(tx, p.provider, p.subject, id, now);
          await userEvents.registered(tx, { id, email }, p.provider, now);
          return true;
        });
        // A concurrent first sign-in with the same e-mail won the race: decide again.
        if (!created) {
          if (attempt > 2) throw new AppError('CONFLICT', 'The account is being created. Please try again.');
          return this.externalSignIn(p, attempt + 1);
        }
        return this.session((await userStore.byId(pool, id))!, await this.openTokenAccount(id));
      }
      case 'link':
      case 'sign-in': {
        const user = await withTransaction(pool, async (tx) => {
          const u = await userStore.byId(tx, decision.userId, true);
          if (!u) throw new AppError('CONFLICT', 'The account changed during sign-in. Please try again.');
          if (decision.kind === 'link') await userStore.link(tx, p.provider, p.subject, u.id, now);
          // Provider values replace stored ones only where the provider gives one.
          const next = {
            firstName: profile.firstName || u.firstName,
            lastName: profile.firstName ? profile.lastName : u.lastName,
            avatarUrl: profile.avatarUrl || u.avatarUrl,
          };
          if (next.firstName !== u.firstName || next.lastName !== u.lastName || next.avatarUrl !== u.avatarUrl) {
            await userStore.updateProfile(tx, u.id, next, now);
            await userEvents.profileChanged(tx, { id: u.id, email: u.email, ...next }, now);
            return { ...u, ...next };
          }
          return u;
        });
        // Opening is idempotent: it answers the balance, and heals a grant that failed at sign-up.
        return this.session(user, await this.openTokenAccount(user.id));
      }
    }
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
    const user = by.userId ? await userStore.byId(pool, by.userId) : by.email ? await userStore.byEmail(pool, normalizeEmail(by.email)) : undefined;
    if (!by.userId && !by.email) throw invalid('userId or email is required');
    if (!user) throw new AppError('NOT_FOUND', 'User not found');
    if (user.role === 'admin') throw new AppError('PERMISSION_DENIED', 'Administrator accounts cannot be deleted');
    const now = this.clock();
    await withTransaction(pool, async (tx) => {
      if (!(await userStore.delete(tx, user.id))) throw new AppError('NOT_FOUND', 'User not found');
      await userEvents.deleted(tx, user.id, now);
    });
    return user.id;
  }

  /** Applies one of billing's subscription facts to the user's plan fields (inside the consumer's inbox transaction). */
  async applySubscriptionFact(tx: Queryable, userId: string, fact: SubscriptionFact): Promise<boolean> {
    const user = await userStore.byId(tx, userId, true);
    if (!user) return false; // deleted, or never here: nothing to keep
    const next = applySubscriptionFact(user.plan, fact);
    if (!next) return false;
    const now = this.clock();
    await userStore.updatePlan(tx, userId, next, now);
    if (!samePlan(user.plan, next)) await userEvents.planChanged(tx, userId, next, now);
    return true;
  }

  private async session(user: UserRow, tokenBalance: number): Promise<Session> {
    const issued = await this.deps.tokens.issue(user.id, 'user', this.clock());
    return { accessToken: issued.token, user: this.profileOf(user), tokenBalance };
  }

  /**
   * The sign-up grant, made now so the answer shows it. When the ledger cannot be reached the
   * account still exists; the ledger's consumer of UserRegistered makes the same grant later.
   */
  private async openTokenAccount(userId: string): Promise<number> {
    try {
      return await this.deps.ledger.openAccount(userId);
    } catch (error) {
      this.deps.logger.warn({ err: error, userId }, 'sign-up grant deferred: the ledger did not answer');
      return 0;
    }
  }
}
