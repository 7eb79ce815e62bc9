// A refunded (or disputed) pack's tokens taken back: the admin view's balance follows the ledger's
// TokensReversed like every other balance event (found by the fault suite: the dashboard kept the
// balance from before the refund until the user's next token movement).
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Pool } from '@flatlay/platform';
import { analyticsEventHandler } from '../src/consumers/analytics-consumer.js';
import { findUserByEmail } from '../src/adapters/admin-queries.js';
import { ev, freshAnalyticsDatabase } from './events.js';

describe('a reversed token pack in the admin view', () => {
  let pool: Pool;
  beforeAll(async () => {
    pool = await freshAnalyticsDatabase();
  });
  afterAll(() => pool?.end());

  it('shows the balance after the reversal, whatever the order the events come in', async () => {
    const handle = analyticsEventHandler(pool);
    const at = new Date('2025-05-20T12:00:00Z');
    const history = [
      ev.registered('fay', 'fay@example.com', at),
      ev.granted('fay', 200, 200, 1, at),
      ev.credited('fay', 1500, 1700, 2, at),
      ev.reversed('fay', 1500, 200, 3, at),
    ];
    // The reversal first, then everything again (at-least-once, out of order across partitions).
    for (const d of [history[3]!, ...history, ...history]) await handle(d);
    assert.equal((await findUserByEmail(pool, 'fay@example.com'))?.token_balance, 200);
  });
});
