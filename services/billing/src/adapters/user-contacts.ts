import type { Queryable } from '@flatlay/platform';

/** SQL of the addresses billing mails receipts to (user_contacts), kept from identity's events. */
export async function saveContact(db: Queryable, userId: string, email: string): Promise<void> {
  await db.query(
    `INSERT INTO user_contacts (user_id, email) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET email = EXCLUDED.email, updated_at = now()`,
    [userId, email],
  );
}

export async function forgetContact(db: Queryable, userId: string): Promise<void> {
  await db.query('DELETE FROM user_contacts WHERE user_id = $1', [userId]);
}

export async function contactOf(db: Queryable, userId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ email: string }>('SELECT email FROM user_contacts WHERE user_id = $1', [userId]);
  return rows[0]?.email;
}
