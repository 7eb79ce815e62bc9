import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { AppError, runMigrations, type Pool } from '@flatlay/platform';
import { freshDatabase } from '../../platform/test/support.js';
import { TokenAccounts } from '../src/app/token-accounts.js';
import { readBalance, readTransactions } from '../src/adapters/account-projection.js';
import { rebuildProjections } from '../src/adapters/projection-rebuild.js';
import { ledgerService } from '../src/service.js';
import type { TokenAccountCommand } from '../src/domain/index.js';

const at = () => new Date();

describe('token accounts on real PostgreSQL', { timeout: 300_000 }, () => {
  let pool: Pool;
  beforeAll(async () => {
    pool = await freshDatabase('ledger');
    await runMigrations(pool, [{ name: 'ledger', dir: ledgerService.migrationsDir }]);
  });
  afterAll(() => pool.end());

  it('50 concurrent spends of 100 on a 200-token account: exactly 2 accepted, balance 0', async () => {
    const userId = randomUUID();
    // Five instances stand for five replicas: only optimistic concurrency keeps them honest.
    const replicas = Array.from({ length: 5 }, () => new TokenAccounts(pool));
    await replicas[0]!.execute(userId, { type: 'SignUpGrant', data: { at: at() } });
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        replicas[i % 5]!.execute(userId, { type: 'SpendForImage', data: { imageId: `img-${i}`, at: at() } }),
      ),
    );
    const accepted = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    assert.equal(accepted.length, 2);
    assert.equal(refused.length, 48);
    for (const r of refused) {
      assert.ok(r.reason instanceof AppError && r.reason.code === 'INSUFFICIENT_TOKENS', String(r.reason));
      assert.equal(typeof r.reason.details.balance, 'number', 'the caller learns the balance');
    }
    assert.deepEqual(await readBalance(pool, userId), { balance: 0, closed: false });
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM es_events WHERE stream_name = $1', [
      `account-${userId}`,
    ]);
    assert.equal(rows[0].n, 3, 'grant and two spends, nothing else');
    const outbox = await pool.query('SELECT count(*)::int AS n FROM outbox WHERE message_key = $1', [userId]);
    assert.equal(outbox.rows[0].n, 3, 'each event goes out through the outbox');
  });

  it('a replica that cached a balance of 0 accepts a spend once another replica credited the account', async () => {
    const userId = randomUUID();
    const a = new TokenAccounts(pool);
    const b = new TokenAccounts(pool);
    await a.execute(userId, { type: 'SignUpGrant', data: { at: at() } });
    await a.execute(userId, { type: 'SpendForImage', data: { imageId: 'first', at: at() } });
    await a.execute(userId, { type: 'SpendForImage', data: { imageId: 'second', at: at() } });
    await assert.rejects(
      a.execute(userId, { type: 'SpendForImage', data: { imageId: 'third', at: at() } }),
      (e: unknown) => e instanceof AppError && e.code === 'INSUFFICIENT_TOKENS' && e.details.balance === 0,
    );
    // B (another replica, or the payment consumer) credits the account behind A's back.
    await b.execute(userId, {
      type: 'CreditPayment',
      data: { paymentId: 'pay-stale', packId: 'starter', packName: 'starter', tokens: 100, at: at() },
    });
    const spent = await a.execute(userId, { type: 'SpendForImage', data: { imageId: 'third', at: at() } });
    assert.equal(spent.balance, 0);
    assert.equal(spent.events.length, 1, 'the spend took effect');
    assert.deepEqual(await readBalance(pool, userId), { balance: 0, closed: false });
    // A's refreshed cache now carries B's credit, so its next accepted command appends at the right version.
    await b.execute(userId, {
      type: 'CreditPayment',
      data: { paymentId: 'pay-stale-2', packId: 'starter', packName: 'starter', tokens: 300, at: at() },
    });
    const next = await a.execute(userId, { type: 'SpendForImage', data: { imageId: 'fourth', at: at() } });
    assert.equal(next.balance, 200);
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM es_events WHERE stream_name = $1', [
      `account-${userId}`,
    ]);
    assert.equal(rows[0].n, 7, 'grant, two spends, credit, spend, credit, spend: the refusal wrote nothing');
  });

  it("each business key takes effect once, and the history reads in the product's words, newest first", async () => {
    const userId = randomUUID();
    const accounts = new TokenAccounts(pool);
    const run = (c: TokenAccountCommand) => accounts.execute(userId, c);
    await run({ type: 'SignUpGrant', data: { at: at() } });
    await run({ type: 'SignUpGrant', data: { at: at() } });
    await run({ type: 'SpendForImage', data: { imageId: 'a', at: at() } });
    await run({ type: 'SpendForImage', data: { imageId: 'a', at: at() } });
    await run({ type: 'RefundImageSpend', data: { imageId: 'a', at: at() } });
    await run({
      type: 'CreditPayment',
      data: { paymentId: 'pay-1', packId: 'main', packName: 'main', tokens: 1000, at: at() },
    });
    await run({
      type: 'AdminAdjust',
      data: {
        adjustmentId: 'adj-1',
        operatorId: 'op',
        reason: 'goodwill',
        direction: 'deduct',
        tokens: 5000,
        at: at(),
      },
    });
    const history = await readTransactions(pool, userId, 10);
    assert.deepEqual(
      history.map((t) => [t.description, t.amount, t.balanceAfter]),
      [
        ['Adjustment by support', -1200, 0],
        ['Main pack purchase', 1000, 1200],
        ['Refund: enhancement failed', 100, 200],
        ['Image enhancement', -100, 100],
        ['Sign-up bonus', 200, 200],
      ],
    );
  });

  it('a rebuilt projection equals the live one after 10,000 random commands', async () => {
    const accounts = new TokenAccounts(pool);
    const users = Array.from({ length: 40 }, () => randomUUID());
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const commandFor = (): TokenAccountCommand => {
      const image = `img-${random(300)}`;
      switch (random(7)) {
        case 0:
          return { type: 'SignUpGrant', data: { at: at() } };
        case 1:
        case 2:
          return { type: 'SpendForImage', data: { imageId: image, at: at() } };
        case 3:
          return { type: 'RefundImageSpend', data: { imageId: image, at: at() } };
        case 4:
          return { type: 'UnlockImage', data: { imageId: image, at: at() } };
        case 5:
          return {
            type: 'CreditPayment',
            data: {
              paymentId: `p-${random(500)}`,
              packId: 'starter',
              packName: 'starter',
              tokens: 100 * (1 + random(5)),
              at: at(),
            },
          };
        default:
          return {
            type: 'AdminAdjust',
            data: {
              adjustmentId: `a-${random(1000)}`,
              operatorId: 'op',
              reason: 'test',
              direction: random(2) ? 'add' : 'deduct',
              tokens: 1 + random(400),
              at: at(),
            },
          };
      }
    };
    const commands = Array.from({ length: 10_000 }, () => ({
      userId: users[random(users.length)]!,
      command: commandFor(),
    }));
    let accepted = 0;
    for (let i = 0; i < commands.length; i += 20) {
      const results = await Promise.allSettled(
        commands.slice(i, i + 20).map(({ userId, command }) => accounts.execute(userId, command)),
      );
      accepted += results.filter((r) => r.status === 'fulfilled' && r.value.events.length > 0).length;
      for (const r of results) if (r.status === 'rejected' && !(r.reason instanceof AppError)) throw r.reason;
    }
    assert.ok(accepted > 1_000, `a meaningful share of commands took effect (${accepted})`);
    const snapshot = async () => ({
      balances: (await pool.query('SELECT user_id, balance, version, closed FROM account_balances ORDER BY user_id'))
        .rows,
      transactions: (
        await pool.query(
          'SELECT event_id, user_id, stream_position, description, amount, balance_after, created_at FROM account_transactions ORDER BY event_id',
        )
      ).rows,
    });
    const live = await snapshot();
    const result = await rebuildProjections(pool);
    assert.ok(result.events >= accepted);
    const rebuilt = await snapshot();
    assert.equal(rebuilt.balances.length, live.balances.length);
    assert.deepEqual(rebuilt, live);
    for (const b of live.balances) assert.ok(b.balance >= 0);
  });
});
