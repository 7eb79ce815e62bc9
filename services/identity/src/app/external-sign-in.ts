import { randomUUID } from 'node:crypto';
import { AppError, withTransaction, type Logger, type Pool, type Queryable } from '@flatlay/platform';
import {
  cleanAvatarUrl,
  cleanProfileText,
  consentRecord,
  decideExternalSignIn,
  emailProblem,
  normalizeEmail,
  splitName,
} from '../domain/index.js';
import { unauthenticated } from './access-tokens.js';
import type { ExternalProfile } from '../adapters/external-verifiers.js';
import { userEvents } from './user-events.js';
import { userStore, type UserRow } from '../adapters/user-store.js';

/** Thrown inside the transaction when a concurrent first sign-in with the same e-mail won the race. */
class RaceLost extends Error {}

/**
 * The account a Google or Supabase sign-in lands on: found by the linked identity, linked by a
 * verified address (Google only), or created; taken over when a verified address reaches an account whose
 * address was never verified (see decideExternalSignIn). The decision is made on locked rows and
 * everything it changes (link, takeover, profile, events) commits in one transaction.
 */
export async function accountForExternalSignIn(
  deps: { pool: Pool; logger: Logger },
  p: ExternalProfile,
  now: Date,
  /** The consent text's version the person was shown; recorded only on a new account. */
  consentVersion = '',
): Promise<UserRow> {
  const email = p.email ? normalizeEmail(p.email) : '';
  if (email && emailProblem(email)) throw unauthenticated('the sign-in token carries an invalid email address');
  const names = p.firstName || p.lastName ? { firstName: p.firstName, lastName: p.lastName } : splitName(p.fullName);
  const profile = {
    firstName: cleanProfileText(names.firstName),
    lastName: cleanProfileText(names.lastName),
    avatarUrl: cleanAvatarUrl(p.avatarUrl),
  };
  for (let attempt = 1; ; attempt++) {
    try {
      return await withTransaction(deps.pool, (tx) =>
        decideAndApply(tx, deps.logger, { ...p, email }, profile, now, consentVersion),
      );
    } catch (error) {
      if (!(error instanceof RaceLost)) throw error;
      if (attempt >= 3) throw new AppError('CONFLICT', 'The account is being created. Please try again.');
    }
  }
}

async function decideAndApply(
  tx: Queryable,
  logger: Logger,
  p: ExternalProfile,
  profile: { firstName: string; lastName: string; avatarUrl: string },
  now: Date,
  consentVersion: string,
): Promise<UserRow> {
  const linked = await userStore.byExternalIdentity(tx, p.provider, p.subject, true);
  const byEmail = linked || !p.email ? undefined : await userStore.byEmail(tx, p.email, true);
  const decision = decideExternalSignIn(p, linked, byEmail);
  switch (decision.kind) {
    case 'refuse':
      throw new AppError(decision.code, decision.message);
    case 'create': {
      const id = randomUUID();
      if (
        !(await userStore.insert(tx, {
          id,
          email: p.email,
          emailVerified: decision.emailVerified,
          passwordHash: null,
          ...profile,
          consent: consentRecord(consentVersion, now),
          now,
        }))
      )
        throw new RaceLost();
      await userStore.link(tx, p.provider, p.subject, id, now);
      await userEvents.registered(tx, { id, email: p.email }, p.provider, now);
      return (await userStore.byId(tx, id))!;
    }
    case 'link':
    case 'sign-in': {
      let u = (decision.kind === 'link' ? byEmail : linked)!;
      if (decision.kind === 'link') await userStore.link(tx, p.provider, p.subject, u.id, now);
      if (decision.takeover) {
        // Whoever set the password or linked another identity may not own the address: all of
        // it goes, with every session opened so far.
        const { unlinked } = await userStore.takeOver(tx, u.id, { provider: p.provider, subject: p.subject }, now);
        const sessionsValidAfter = await userStore.endSessions(tx, u.id, now);
        logger.info(
          { userId: u.id, provider: p.provider, clearedPassword: u.passwordHash !== null, unlinked },
          'a verified sign-in took over an account whose address was not verified',
        );
        u = { ...u, passwordHash: null, emailVerified: true, sessionsValidAfter };
      }
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
    }
  }
}
