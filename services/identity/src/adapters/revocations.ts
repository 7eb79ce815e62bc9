import type { Queryable } from '@flatlay/platform';

/**
 * Access tokens revoked before their expiry, by token id, kept in Postgres until they would
 * have expired. A revocation is never undone, so each instance caches the ids it has seen
 * revoked; a token not in the cache is checked against the table (with its user, in one query).
 */
export class Revocations {
  private readonly known = new Map<string, number>();
  private lastPurge = 0;

  constructor(
    private readonly db: Queryable,
    private readonly cacheLimit = 50_000,
  ) {}

  isKnownRevoked(tokenId: string, now: Date): boolean {
    const until = this.known.get(tokenId);
    return until !== undefined && until > now.getTime();
  }

  remember(tokenId: string, expiresAt: Date): void {
    if (this.known.size >= this.cacheLimit) this.known.delete(this.known.keys().next().value!);
    this.known.set(tokenId, expiresAt.getTime());
  }

  /** Records the revocation; false when the token was revoked already. */
  async revoke(tokenId: string, userId: string, expiresAt: Date, now: Date): Promise<boolean> {
    const { rowCount } = await this.db.query(
      'INSERT INTO revoked_tokens (jti, user_id, expires_at, revoked_at) VALUES ($1, $2, $3, $4) ON CONFLICT (jti) DO NOTHING',
      [tokenId, userId, expiresAt, now],
    );
    this.remember(tokenId, expiresAt);
    await this.purge(now);
    return rowCount === 1;
  }

  /** Drops rows of tokens that have expired anyway (at most once a minute per instance). */
  private async purge(now: Date): Promise<void> {
    if (now.getTime() - this.lastPurge < 60_000) return;
    this.lastPurge = now.getTime();
    await this.db.query('DELETE FROM revoked_tokens WHERE expires_at < $1', [now]);
    for (const [id, until] of this.known) if (until <= now.getTime()) this.known.delete(id);
  }
}
