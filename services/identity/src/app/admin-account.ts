import { randomUUID } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import type { Pool } from '@flatlay/platform';
import { normalizeEmail } from '../domain/index.js';

/**
 * Creates the operator's admin account, or brings its password and role up to date, from
 * ADMIN_EMAIL / ADMIN_PASSWORD at start. Idempotent: restarts change nothing else.
 */
export async function ensureAdminAccount(pool: Pool, email: string, password: string, now = new Date()): Promise<'created' | 'updated'> {
  if (password.length < 8) throw new Error('ADMIN_PASSWORD must have at least 8 characters');
  const passwordHash = await hash(password); // argon2id with the library's recommended cost
  const { rows } = await pool.query(
    `INSERT INTO users (id, email, password_hash, role, created_at, updated_at)
     VALUES ($1, $2, $3, 'admin', $4, $4)
     ON CONFLICT (lower(email)) DO UPDATE SET password_hash = EXCLUDED.password_hash, role = 'admin', updated_at = EXCLUDED.updated_at
     RETURNING (xmax = 0) AS inserted`,
    [randomUUID(), normalizeEmail(email), passwordHash, now],
  );
  return rows[0].inserted ? 'created' : 'updated';
}
