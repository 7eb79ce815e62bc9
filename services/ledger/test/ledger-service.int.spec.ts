import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { events, eventTypes, ledger, topics } from '@flatlay/proto';
import {
  type AppError,
  call,
  createClient,
  createLogger,
  outboxMessage,
  serviceCredential,
  startService,
  type RunningService,
} from '@flatlay/platform';
import { requireEnv, testKafkaBus, type TestKafkaBus, waitFor } from '../../platform/test/support.js';
import { ledgerService } from '../src/service.js';

describe('ledger service over gRPC and Kafka', { timeout: 180_000 }, () => {
  let service: RunningService;
  let bus: TestKafkaBus;
  let client: ledger.LedgerServiceClient;

  beforeAll(async () => {
    bus = testKafkaBus('ledger-test');
    service = await startService(ledgerService, {
      databaseUrl: requireEnv('DATABASE_URL'),
      database: `flatlay_ledger_test_${randomUUID().replaceAll('-', '').slice(0, 12)}`,
      bus,
      grpcPort: 0,
      logger: createLogger('ledger', 'silent'),
    });
    // The test calls as the gateway does, with the process's own service secret.
    client = createClient(ledger.LedgerServiceClient, `127.0.0.1:${service.port}`, serviceCredential('gateway'));
  });
  afterAll(async () => {
    client?.close();
    await service?.stop();
    await bus?.close();
  });

  const balanceOf = async (userId: string) => (await call(client, client.getBalance, { userId })).balance;

  it('opens an account once with 200 tokens and refuses an overspend with the balance', async () => {
    const userId = randomUUID();
    assert.equal((await call(client, client.openAccount, { userId })).balance, 200);
    assert.equal((await call(client, client.openAccount, { userId })).balance, 200);
    const first = await call(client, client.spend, {
      userId,
      imageId: 'i1',
      purpose: ledger.SpendPurpose.SPEND_PURPOSE_ENHANCEMENT,
    });
    assert.deepEqual(first, { balance: 100, charged: 100, unlimitedPlan: false });
    const again = await call(client, client.spend, {
      userId,
      imageId: 'i1',
      purpose: ledger.SpendPurpose.SPEND_PURPOSE_ENHANCEMENT,
    });
    // A repeat takes nothing more and answers what the first spend took (ADR 0104): the balance says it.
    assert.deepEqual([again.charged, again.balance], [100, 100], 'the same image is charged once');
    await call(client, client.spend, { userId, imageId: 'i2', purpose: ledger.SpendPurpose.SPEND_PURPOSE_UNLOCK });
    await assert.rejects(
      call(client, client.spend, { userId, imageId: 'i3', purpose: ledger.SpendPurpose.SPEND_PURPOSE_ENHANCEMENT }),
      (e: AppError) => {
        assert.equal(e.code, 'INSUFFICIENT_TOKENS');
        assert.equal(e.details.balance, 0);
        assert.match(e.message, /Buy a token pack/);
        return true;
      },
    );
    const list = await call(client, client.listTransactions, { userId, limit: 10 });
    assert.equal(list.balance, 0);
    assert.deepEqual(
      list.transactions.map((t) => [t.description, t.amount]),
      [
        ['Image unlock', -100],
        ['Image enhancement', -100],
        ['Sign-up bonus', 200],
      ],
    );
    await assert.rejects(
      call(client, client.listTransactions, { userId, limit: 1000 }),
      (e: AppError) => e.code === 'INVALID_ARGUMENT',
    );
  });

  it('credits the same payment once when its event arrives three times and out of order', async () => {
    const userId = randomUUID();
    const payment = (paymentId: string, tokens: number, eventId = randomUUID(), packName = 'main') => {
      const m = outboxMessage(
        topics.billingPayment,
        eventTypes.PaymentSucceeded,
        events.PaymentSucceeded,
        {
          paymentId,
          userId,
          kind: 'token_pack',
          packId: packName,
          packName,
          tokens,
          amountCents: 1900,
          currency: 'usd',
          imageId: '',
          enhancementId: '',
        },
        { aggregateId: userId, occurredAt: new Date(), eventId },
      );
      return { topic: m.topic, key: m.key, value: Buffer.from(m.envelope), headers: {} };
    };
    const registered = outboxMessage(
      topics.identityUser,
      eventTypes.UserRegistered,
      events.UserRegistered,
      { userId, email: 'x@example.com', method: 'password' },
      { aggregateId: userId, occurredAt: new Date() },
    );
    const p1 = payment('pay-A', 1000);
    // pay-B's event first, then pay-A's three times: once redelivered as is, once re-sent with a new event id.
    await bus.publish([
      payment('pay-B', 500),
      p1,
      { ...registered, value: Buffer.from(registered.envelope), headers: {} },
      p1,
      payment('pay-A', 1000),
    ]);
    await waitFor(async () => (await balanceOf(userId)) >= 1700, 'balance 200 + 1000 + 500');
    // A later payment on the same key lands on the same partition, after the duplicates: once
    // it is credited, every duplicate before it has been handled, so the count below is final.
    await bus.publish([payment('pay-sentinel', 100, randomUUID(), 'starter')]);
    await waitFor(
      async () =>
        (await call(client, client.listTransactions, { userId, limit: 10 })).transactions.some(
          (t) => t.description === 'Starter pack purchase',
        ),
      'the sentinel payment credited',
    );
    assert.equal(await balanceOf(userId), 1800);
    const list = await call(client, client.listTransactions, { userId, limit: 10 });
    assert.equal(list.transactions.filter((t) => t.description === 'Main pack purchase').length, 2);
  });

  it("takes back a disputed plan period's tokens once, in the product's words", async () => {
    const userId = randomUUID();
    const periodStart = new Date('2026-03-01T00:00:00.000Z');
    const periodEnd = new Date('2026-04-01T00:00:00.000Z');
    const message = <T>(topic: string, type: string, codec: Parameters<typeof outboxMessage<T>>[2], payload: T) => {
      const m = outboxMessage(topic, type, codec, payload, { aggregateId: userId, occurredAt: new Date() });
      return { topic: m.topic, key: m.key, value: Buffer.from(m.envelope), headers: {} };
    };
    const period = {
      userId,
      subscriptionId: 'sub_disputed',
      plan: 'lite',
      billingPeriod: 'monthly',
      periodStart,
      periodEnd,
    };
    const reversed = message(topics.billingSubscription, eventTypes.PlanPeriodReversed, events.PlanPeriodReversed, {
      ...period,
      disputeId: 'dp_1',
    });
    await bus.publish([
      message(topics.identityUser, eventTypes.UserRegistered, events.UserRegistered, {
        userId,
        email: 'x@example.com',
        method: 'password',
      }),
      message(topics.billingSubscription, eventTypes.SubscriptionActivated, events.SubscriptionActivated, period),
      reversed,
      reversed,
      // A second dispute's event for the same period: the period is taken back once.
      message(topics.billingSubscription, eventTypes.PlanPeriodReversed, events.PlanPeriodReversed, {
        ...period,
        disputeId: 'dp_2',
      }),
    ]);
    // The same key (the user) keeps the subscription topic in order: once the next period is
    // granted, every reversal before it has been handled.
    await bus.publish([
      message(topics.billingSubscription, eventTypes.SubscriptionRenewed, events.SubscriptionRenewed, {
        ...period,
        periodStart: periodEnd,
        periodEnd: new Date('2026-05-01T00:00:00.000Z'),
      }),
    ]);
    const history = async () => (await call(client, client.listTransactions, { userId, limit: 10 })).transactions;
    await waitFor(
      async () => (await history()).filter((t) => t.description === 'Lite plan: monthly tokens').length === 2,
      'the next period granted',
    );
    assert.equal(await balanceOf(userId), 200 + 1700);
    const list = { transactions: await history() };
    // The sign-up grant comes on another topic than the plan's events: its place among them varies.
    assert.deepEqual(list.transactions.map((t) => `${t.description} ${t.amount}`).sort(), [
      'Lite plan (monthly) reversed: payment disputed -1700',
      'Lite plan: monthly tokens 1700',
      'Lite plan: monthly tokens 1700',
      'Sign-up bonus 200',
    ]);
  });

  it('closes the account when the user is deleted, keeping the history', async () => {
    const userId = randomUUID();
    await call(client, client.openAccount, { userId });
    const deleted = outboxMessage(
      topics.identityUser,
      eventTypes.UserDeleted,
      events.UserDeleted,
      { userId },
      { aggregateId: userId, occurredAt: new Date() },
    );
    await bus.publish([{ topic: deleted.topic, key: deleted.key, value: Buffer.from(deleted.envelope), headers: {} }]);
    const { pool } = service.context;
    await waitFor(
      async () =>
        (await pool.query('SELECT closed FROM account_balances WHERE user_id = $1', [userId])).rows[0]?.closed === true,
      'account closed',
    );
    await assert.rejects(
      call(client, client.spend, { userId, imageId: 'x', purpose: ledger.SpendPurpose.SPEND_PURPOSE_ENHANCEMENT }),
      (e: AppError) => e.code === 'CONFLICT',
    );
    assert.equal((await call(client, client.listTransactions, { userId, limit: 10 })).transactions.length, 1);
  });
});
