import { randomUUID } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { withTransaction, type Pool } from '@flatlay/platform';
import { normalizeEmail, PASSWORD_MIN_LENGTH, passwordTooLong } from '../domain/index.js';
import { userStore } from '../adapters/user-store.js';

/**
 * Creates the operator's admin account, or brings its password and role up to date, from
 * ADMIN_EMAIL / ADMIN_PASSWORD at start. A restart with the same password changes nothing (the
 * operator stays signed in); a new password, or an existing account made admin, ends every
 * session opened before, in the same transaction.
 */
export async function ensureAdminAccount(
  pool: Pool,
  email: string,
  password: string,
  now = new Date(),
): Promise<'created' | 'updated' | 'unchanged'> {
  if ([...password].length < PASSWORD_MIN_LENGTH)
    throw new Error(`ADMIN_PASSWORD must have at least ${PASSWORD_MIN_LENGTH} characters`);
  if (passwordTooLong(password)) throw new Error('ADMIN_PASSWORD must have at most 256 characters');
  const address = normalizeEmail(email);
  const existing = await userStore.byEmail(pool, address);
  if (
    existing?.role === 'admin' &&
    existing.passwordHash &&
    (await verify(existing.passwordHash, password).catch(() => false))
  )
    return 'unchanged';
  const passwordHash = await hash(password); // argon2id with the library's recommended cost
  return withTransaction(pool, async (tx) => {
    const { rows } = await tx.query(
      `INSERT INTO users (id, email, password_hash, role, created_at, updated_at)
       VALUES ($1, $2, $3, 'admin', $4, $4)
       ON CONFLICT (lower(email)) DO UPDATE SET password_hash = EXCLUDED.password_hash, role = 'admin', updated_at = EXCLUDED.updated_at
       RETURNING id, (xmax = 0) AS inserted`,
      [randomUUID(), address, passwordHash, now],
    );
    if (rows[0].inserted) return 'created';
    await userStore.endSessions(tx, rows[0].id as string, now);
    return 'updated';
  });
}
