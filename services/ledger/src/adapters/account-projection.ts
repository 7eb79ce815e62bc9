import type { Queryable, RecordedEvent } from '@flatlay/platform';
import { balanceDelta, type TokenAccountEvent } from '../domain/index.js';

/** Entries a user sees in the history: movements and usage, not plan bookkeeping. */
const HISTORY_EVENTS = new Set<TokenAccountEvent['type']>([
  'TokensGranted',
  'TokensSpent',
  'TokensRefunded',
  'TokensCredited',
  'TokensReversed',
  'PlanTokensReversed',
  'TokensAdjusted',
]);

export interface ProjectedAccount {
  userId: string;
  balance: number;
  version: number;
  closed: boolean;
}

export interface AccountChange {
  account: ProjectedAccount;
  events: Array<Pick<RecordedEvent<TokenAccountEvent>, 'eventId' | 'streamPosition' | 'type' | 'data'>>;
  balanceBefore: number;
}

/**
 * Writes accounts' new events into the balance and history read models, in one statement
 * whatever the number of accounts. Called in the transaction that appended them, and by the rebuild.
 */
export async function projectAccountChanges(db: Queryable, changes: AccountChange[]): Promise<void> {
  if (changes.length === 0) return;
  const history: Array<[string, string, number, string, number, number, string]> = [];
  for (const { account, events, balanceBefore } of changes) {
    let balance = balanceBefore;
    for (const e of events) {
      const event = { type: e.type, data: e.data } as TokenAccountEvent;
      const delta = balanceDelta(event);
      balance += delta;
      if (HISTORY_EVENTS.has(event.type))
        history.push([
          e.eventId,
          account.userId,
          e.streamPosition,
          event.data.description,
          delta,
          balance,
          event.data.occurredAt,
        ]);
    }
  }
  const column = <T>(i: number) => history.map((r) => r[i] as T);
  await db.query({
    name: 'ledger-project-accounts',
    text: `WITH history AS (
       INSERT INTO account_transactions (event_id, user_id, stream_position, description, amount, balance_after, created_at)
       SELECT * FROM unnest($5::uuid[], $6::text[], $7::bigint[], $8::text[], $9::bigint[], $10::bigint[], $11::timestamptz[]))
     INSERT INTO account_balances (user_id, balance, version, closed, updated_at)
     SELECT *, now() FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::boolean[])
     ON CONFLICT (user_id) DO UPDATE SET balance = EXCLUDED.balance, version = EXCLUDED.version, closed = EXCLUDED.closed, updated_at = now()`,
    values: [
      changes.map((c) => c.account.userId),
      changes.map((c) => c.account.balance),
      changes.map((c) => c.account.version),
      changes.map((c) => c.account.closed),
      ...[0, 1, 2, 3, 4, 5, 6].map((i) => column(i)),
    ],
  });
}

export interface TransactionView {
  id: string;
  description: string;
  amount: number;
  balanceAfter: number;
  createdAt: Date;
}

export async function readBalance(
  db: Queryable,
  userId: string,
): Promise<{ balance: number; closed: boolean } | undefined> {
  const { rows } = await db.query('SELECT balance, closed FROM account_balances WHERE user_id = $1', [userId]);
  return rows[0];
}

export async function readTransactions(
  db: Queryable,
  userId: string,
  limit: number,
  offset = 0,
): Promise<TransactionView[]> {
  const { rows } = await db.query(
    `SELECT event_id AS id, description, amount, balance_after AS "balanceAfter", created_at AS "createdAt"
     FROM account_transactions WHERE user_id = $1 ORDER BY stream_position DESC LIMIT $2 OFFSET $3`,
    [userId, limit, offset],
  );
  return rows;
}
