import type { Queryable } from '@flatlay/platform';
import type { LinkPurpose, LinkState } from '../domain/index.js';

export interface LinkRow extends LinkState {
  id: string;
  userId: string;
  email: string;
}

const toLink = (r: Record<string, unknown>): LinkRow => ({
  id: r.id as string,
  userId: r.user_id as string,
  purpose: r.purpose as LinkPurpose,
  email: r.email as string,
  expiresAt: r.expires_at as Date,
  usedAt: (r.used_at as Date | null) ?? null,
});

/** SQL of the e-mailed links (account_links). */
export const linkStore = {
  async insert(db: Queryable, link: Omit<LinkRow, 'usedAt'> & { createdAt: Date }): Promise<void> {
    await db.query(
      'INSERT INTO account_links (id, user_id, purpose, email, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)',
      [link.id, link.userId, link.purpose, link.email, link.createdAt, link.expiresAt],
    );
  },

  async byId(db: Queryable, id: string, forUpdate = false): Promise<LinkRow | undefined> {
    const { rows } = await db.query(
      `SELECT id, user_id, purpose, email, expires_at, used_at FROM account_links WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
      [id],
    );
    return rows[0] ? toLink(rows[0]) : undefined;
  },

  async markUsed(db: Queryable, id: string, now: Date): Promise<void> {
    await db.query('UPDATE account_links SET used_at = $2 WHERE id = $1', [id, now]);
  },

  /** How many links of `purpose` the user was sent since `since` (used, replaced or not). */
  async countSince(db: Queryable, userId: string, purpose: LinkPurpose, since: Date): Promise<number> {
    const { rows } = await db.query<{ n: string }>(
      'SELECT count(*) AS n FROM account_links WHERE user_id = $1 AND purpose = $2 AND created_at > $3',
      [userId, purpose, since],
    );
    return Number(rows[0]?.n ?? 0);
  },

  /** A newer link of the same purpose replaces the older ones: only the latest e-mail works. */
  async retireOthers(db: Queryable, userId: string, purpose: LinkPurpose, keep: string, now: Date): Promise<void> {
    await db.query(
      'UPDATE account_links SET used_at = $4 WHERE user_id = $1 AND purpose = $2 AND id <> $3 AND used_at IS NULL',
      [userId, purpose, keep, now],
    );
  },
};
