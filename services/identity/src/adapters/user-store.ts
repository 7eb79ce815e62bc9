import type { Queryable } from '@flatlay/platform';
import type { Plan, PlanState, SubscriptionStatus } from '../domain/index.js';
import type { Role } from '../app/access-tokens.js';

export interface UserRow {
  id: string;
  email: string;
  passwordHash: string | null;
  role: Role;
  firstName: string;
  lastName: string;
  avatarUrl: string;
  stripeCustomerId: string;
  stripeSubscriptionId: string;
  plan: PlanState;
  /** Someone proved control of the address (a verified external sign-in). */
  emailVerified: boolean;
  /** Tokens issued under an earlier value (or none) are over; null: sessions were never ended. */
  sessionsValidAfter: Date | null;
  /** The sign-up consent: when it was given and the version of the text shown; null when none was recorded. */
  consent: { version: string; at: Date } | null;
  createdAt: Date;
}

const COLUMNS = `id, email, password_hash, role, first_name, last_name, avatar_url, stripe_customer_id, stripe_subscription_id,
  subscription_plan, subscription_status, subscription_period_end, plan_as_of, email_verified, sessions_valid_after, consented_at, consent_version, created_at`;

function toUser(r: Record<string, unknown>): UserRow {
  return {
    id: r.id as string,
    email: r.email as string,
    passwordHash: (r.password_hash as string | null) ?? null,
    role: r.role as Role,
    firstName: r.first_name as string,
    lastName: r.last_name as string,
    avatarUrl: r.avatar_url as string,
    stripeCustomerId: r.stripe_customer_id as string,
    stripeSubscriptionId: r.stripe_subscription_id as string,
    plan: {
      plan: r.subscription_plan as Plan,
      status: r.subscription_status as SubscriptionStatus,
      subscriptionId: r.stripe_subscription_id as string,
      periodEnd: (r.subscription_period_end as Date | null) ?? null,
      asOf: (r.plan_as_of as Date | null) ?? null,
    },
    emailVerified: r.email_verified === true,
    sessionsValidAfter: (r.sessions_valid_after as Date | null) ?? null,
    consent: r.consented_at ? { version: r.consent_version as string, at: r.consented_at as Date } : null,
    createdAt: r.created_at as Date,
  };
}

/** SQL of the users table and linked identities; the only code that knows their columns. */
export const userStore = {
  async byId(db: Queryable, id: string, forUpdate = false): Promise<UserRow | undefined> {
    const { rows } = await db.query(`SELECT ${COLUMNS} FROM users WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [
      id,
    ]);
    return rows[0] ? toUser(rows[0]) : undefined;
  },

  /** `email` is normalised (lower case); the unique index is on lower(email). */
  async byEmail(db: Queryable, email: string, forUpdate = false): Promise<UserRow | undefined> {
    const { rows } = await db.query(
      `SELECT ${COLUMNS} FROM users WHERE lower(email) = $1${forUpdate ? ' FOR UPDATE' : ''}`,
      [email],
    );
    return rows[0] ? toUser(rows[0]) : undefined;
  },

  async byExternalIdentity(
    db: Queryable,
    provider: string,
    subject: string,
    forUpdate = false,
  ): Promise<UserRow | undefined> {
    const { rows } = await db.query(
      `SELECT u.* FROM users u JOIN external_identities x ON x.user_id = u.id WHERE x.provider = $1 AND x.subject = $2${forUpdate ? ' FOR UPDATE OF u' : ''}`,
      [provider, subject],
    );
    return rows[0] ? toUser(rows[0]) : undefined;
  },

  /** Inserts a new account; false when the e-mail is taken (the unique index decides races). */
  async insert(
    db: Queryable,
    u: {
      id: string;
      email: string;
      emailVerified: boolean;
      passwordHash: string | null;
      firstName: string;
      lastName: string;
      avatarUrl: string;
      consent: { version: string; at: Date } | null;
      now: Date;
    },
  ): Promise<boolean> {
    const { rowCount } = await db.query(
      `INSERT INTO users (id, email, email_verified, password_hash, role, first_name, last_name, avatar_url,
         consented_at, consent_version, created_at, updated_at)
       VALUES ($1, $2, $3, $4, 'user', $5, $6, $7, $8, $9, $10, $10) ON CONFLICT (lower(email)) DO NOTHING`,
      [
        u.id,
        u.email,
        u.emailVerified,
        u.passwordHash,
        u.firstName,
        u.lastName,
        u.avatarUrl,
        u.consent?.at ?? null,
        u.consent?.version ?? null,
        u.now,
      ],
    );
    return rowCount === 1;
  },

  /**
   * Ends every session issued so far: the new instant is `now`, or just after the previous one
   * when clocks disagree, so it always moves forward. Answers the new instant (new tokens carry it).
   */
  async endSessions(db: Queryable, id: string, now: Date): Promise<Date> {
    const { rows } = await db.query(
      `UPDATE users SET sessions_valid_after = GREATEST($2::timestamptz, sessions_valid_after + interval '1 millisecond'), updated_at = $2
       WHERE id = $1 RETURNING sessions_valid_after`,
      [id, now],
    );
    if (!rows[0]) throw new Error(`no user ${id}`);
    return rows[0].sessions_valid_after as Date;
  },

  async setPassword(db: Queryable, id: string, passwordHash: string, now: Date): Promise<void> {
    await db.query('UPDATE users SET password_hash = $2, updated_at = $3 WHERE id = $1', [id, passwordHash, now]);
  },

  /**
   * A verified sign-in proved the address of an account that had not proven it: the address is
   * verified from now on, the password goes, and every identity but the one proving it is unlinked.
   */
  async takeOver(
    db: Queryable,
    id: string,
    keep: { provider: string; subject: string },
    now: Date,
  ): Promise<{ unlinked: number }> {
    await db.query('UPDATE users SET email_verified = true, password_hash = NULL, updated_at = $2 WHERE id = $1', [
      id,
      now,
    ]);
    const { rowCount } = await db.query(
      'DELETE FROM external_identities WHERE user_id = $1 AND NOT (provider = $2 AND subject = $3)',
      [id, keep.provider, keep.subject],
    );
    return { unlinked: rowCount ?? 0 };
  },

  /** The address was proven by a link sent to it; false when the account has another address by now. */
  async markVerified(db: Queryable, id: string, email: string, now: Date): Promise<boolean> {
    const { rowCount } = await db.query(
      'UPDATE users SET email_verified = true, updated_at = $3 WHERE id = $1 AND lower(email) = lower($2)',
      [id, email, now],
    );
    return rowCount === 1;
  },

  /** Moves the account to an address proven by a link sent to it (the unique index refuses a taken one). */
  async changeEmail(db: Queryable, id: string, email: string, now: Date): Promise<void> {
    await db.query('UPDATE users SET email = $2, email_verified = true, updated_at = $3 WHERE id = $1', [
      id,
      email,
      now,
    ]);
  },

  async link(db: Queryable, provider: string, subject: string, userId: string, now: Date): Promise<void> {
    await db.query(
      'INSERT INTO external_identities (provider, subject, user_id, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING',
      [provider, subject, userId, now],
    );
  },

  async updateProfile(
    db: Queryable,
    id: string,
    p: { firstName: string; lastName: string; avatarUrl: string },
    now: Date,
  ): Promise<void> {
    await db.query('UPDATE users SET first_name = $2, last_name = $3, avatar_url = $4, updated_at = $5 WHERE id = $1', [
      id,
      p.firstName,
      p.lastName,
      p.avatarUrl,
      now,
    ]);
  },

  async updatePlan(db: Queryable, id: string, plan: PlanState, now: Date): Promise<void> {
    await db.query(
      `UPDATE users SET subscription_plan = $2, subscription_status = $3, stripe_subscription_id = $4, subscription_period_end = $5, plan_as_of = $6, updated_at = $7
       WHERE id = $1`,
      [id, plan.plan, plan.status, plan.subscriptionId, plan.periodEnd, plan.asOf, now],
    );
  },

  async setCustomer(db: Queryable, id: string, customerId: string, now: Date): Promise<void> {
    await db.query('UPDATE users SET stripe_customer_id = $2, updated_at = $3 WHERE id = $1', [id, customerId, now]);
  },

  /** Removes the account, its password hash, profile and linked identities. */
  async delete(db: Queryable, id: string): Promise<boolean> {
    const { rowCount } = await db.query('DELETE FROM users WHERE id = $1', [id]);
    return rowCount === 1;
  },

  /**
   * What a token check needs in one round trip: the user's role (if the user exists), when the
   * user's sessions were last ended, and whether the token is revoked.
   */
  async sessionFacts(
    db: Queryable,
    userId: string,
    tokenId: string,
  ): Promise<{ role: Role | undefined; sessionsValidAfter: Date | null; revoked: boolean }> {
    const { rows } = await db.query(
      `SELECT u.role, u.sessions_valid_after, EXISTS (SELECT 1 FROM revoked_tokens WHERE jti = $2) AS revoked
       FROM (SELECT 1) one LEFT JOIN users u ON u.id = $1`,
      [userId, tokenId],
    );
    return {
      role: (rows[0]?.role as Role | null) ?? undefined,
      sessionsValidAfter: (rows[0]?.sessions_valid_after as Date | null) ?? null,
      revoked: rows[0]?.revoked === true,
    };
  },
};
