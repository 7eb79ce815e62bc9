import { withTransaction, type Pool } from '@flatlay/platform';
import { evolve, initialState, type TokenAccountEvent } from '../domain/index.js';
import { projectAccountChanges, type AccountChange } from './account-projection.js';

/**
 * Replays every account stream into empty read models, in one transaction: readers see the
 * old projection until the new one is complete.
 */
export async function rebuildProjections(pool: Pool): Promise<{ accounts: number; events: number }> {
  return withTransaction(pool, async (tx) => {
    await tx.query('LOCK TABLE account_balances, account_transactions IN EXCLUSIVE MODE');
    await tx.query('TRUNCATE account_balances, account_transactions');
    const { rows } = await tx.query(
      `SELECT stream_name, stream_position, event_id, event_type, data FROM es_events
       WHERE stream_name LIKE 'account-%' ORDER BY stream_name, stream_position`,
    );
    let accounts = 0;
    let changes: AccountChange[] = [];
    for (let i = 0; i < rows.length; ) {
      const stream = rows[i].stream_name as string;
      const batch = [];
      while (i < rows.length && rows[i].stream_name === stream) batch.push(rows[i++]);
      const state = batch.reduce(
        (s, r) => evolve(s, { type: r.event_type, data: r.data } as TokenAccountEvent),
        initialState(),
      );
      changes.push({
        account: {
          userId: stream.slice('account-'.length),
          balance: state.balance,
          version: batch.length,
          closed: state.status === 'closed',
        },
        events: batch.map((r) => ({
          eventId: r.event_id,
          streamPosition: r.stream_position,
          type: r.event_type,
          data: r.data,
        })),
        balanceBefore: 0,
      });
      accounts++;
      if (changes.length === 500) {
        await projectAccountChanges(tx, changes);
        changes = [];
      }
    }
    await projectAccountChanges(tx, changes);
    return { accounts, events: rows.length };
  });
}
