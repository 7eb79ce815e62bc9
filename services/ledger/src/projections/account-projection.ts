import type { Queryable, RecordedEvent } from '@flatlay/platform';
import { balanceDelta, type TokenAccountEvent } from '../domain/index.js';

/** Entries a user sees in the history: movements and usage, not plan bookkeeping. */
const HISTORY_EVENTS = new Set<TokenAccountEvent['type']>(['TokensGranted', 'TokensSpent', 'TokensRefunded', 'TokensCredited', 'TokensAdjusted']);

export interface ProjectedAccount {
  userId: string;
  balance: number;
  version: number;
  closed: boolean;
}

/**
 * Writes an account's new events into the balance and history read models. Called in the
 * transaction that appended them, and by the rebuild.
 */
export async function projectAccountEvents(
  db: Queryable,
  account: ProjectedAccount,
  events: Array<Pick<RecordedEvent<TokenAccountEvent>, 'eventId' | 'streamPosition' | 'type' | 'data'>>,
  balanceBefore: number,
): Promise<void> {
  let balance = balanceBefore;
  const rows: Array<[string, number, string, number, number, string]> = [];
  for (const e of events) {
    const event = { type: e.type, data: e.data } as TokenAccountEvent;
    const delta = balanceDelta(event);
    balance += delta;
    if (HISTORY_EVENTS.has(event.type)) rows.push([e.eventId, e.streamPosition, event.data.description, delta, balance, event.data.occurredAt]);
  }
  // One statement: the history rows and the balance row, so a spend costs one round trip here.
  await db.query(
    `WITH history AS (
       INSERT INTO account_transactions (event_id, user_id, stream_position, description, amount, balance_after, created_at)
       SELECT id, $1, pos, descr, amount, after, at
       FROM unnest($5::uuid[], $6::bigint[], $7::text[], $8::bigint[], $9::bigint[], $10::timestamptz[]) AS t(id, pos, descr, amount, after, at))
     INSERT INTO account_balances (user_id, balance, version, closed, updated_at) VALUES ($1, $2, $3, $4, now())
     ON CONFLICT (user_id) DO UPDATE SET balance = EXCLUDED.balance, version = EXCLUDED.version, closed = EXCLUDED.closed, updated_at = now()`,
    [account.userId, account.balance, account.version, account.closed, ...[0, 1, 2, 3, 4, 5].map((i) => rows.map((r) => r[i]))],
  );
}

export interface TransactionView {
  id: string;
  description: string;
  amount: number;
  balanceAfter: number;
  createdAt: Date;
}

export async function readBalance(db: Queryable, userId: string): Promise<{ balance: number; closed: boolean } | undefined> {
  const { rows } = await db.query('SELECT balance, closed FROM account_balances WHERE user_id = $1', [userId]);
  return rows[0];
}

export async function readTransactions(db: Queryable, userId: string, limit: number): Promise<TransactionView[]> {
  const { rows } = await db.query(
    `SELECT event_id AS id, description, amount, balance_after AS "balanceAfter", created_at AS "createdAt"
     FROM account_transactions WHERE user_id = $1 ORDER BY stream_position DESC LIMIT $2`,
    [userId, limit],
  );
  return rows;
}
