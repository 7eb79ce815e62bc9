// Events as the other services publish them, for feeding the analytics consumer in tests and benchmarks.
import { randomUUID } from 'node:crypto';
import { events, eventTypes, topics } from '@flatlay/proto';
import {
  createPool,
  ensureDatabase,
  outboxMessage,
  platformMigrations,
  runMigrations,
  type Delivery,
  type MessageType,
  type Pool,
} from '@flatlay/platform';
import { requireEnv } from '../../platform/test/support.js';

export const analyticsMigrations = {
  name: 'analytics',
  dir: new URL('../src/db/migrations', import.meta.url).pathname,
};

/** A new database with the platform's and analytics' tables, so tests never see each other's rows. */
export async function freshAnalyticsDatabase(prefix = 'analytics_test'): Promise<Pool> {
  const name = `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const pool = createPool(await ensureDatabase(requireEnv('DATABASE_URL'), name), 10);
  await runMigrations(pool, [platformMigrations, analyticsMigrations]);
  return pool;
}

let offset = 0;
function delivery<T>(
  topic: string,
  type: keyof typeof eventTypes,
  codec: MessageType<T>,
  payload: T,
  key: string,
  at: Date,
  version = 0,
): Delivery {
  const m = outboxMessage(topic, eventTypes[type], codec, payload, {
    aggregateId: key,
    occurredAt: at,
    aggregateVersion: version,
  });
  return { topic, key, value: Buffer.from(m.envelope), headers: {}, partition: 0, offset: offset++ };
}

export const ev = {
  registered: (userId: string, email: string, at: Date) =>
    delivery(
      topics.identityUser,
      'UserRegistered',
      events.UserRegistered,
      { userId, email, method: 'password' },
      userId,
      at,
    ),
  profile: (userId: string, email: string, firstName: string, lastName: string, at: Date, avatarUrl = '') =>
    delivery(
      topics.identityUser,
      'UserProfileChanged',
      events.UserProfileChanged,
      { userId, email, firstName, lastName, avatarUrl },
      userId,
      at,
    ),
  plan: (userId: string, plan: string, status: string, at: Date) =>
    delivery(
      topics.identityUser,
      'UserPlanChanged',
      events.UserPlanChanged,
      { userId, subscriptionPlan: plan, subscriptionStatus: status },
      userId,
      at,
    ),
  deleted: (userId: string, at: Date) =>
    delivery(topics.identityUser, 'UserDeleted', events.UserDeleted, { userId }, userId, at),
  granted: (userId: string, amount: number, balanceAfter: number, version: number, at: Date) =>
    delivery(
      topics.ledgerAccount,
      'TokensGranted',
      events.TokensGranted,
      {
        userId,
        amount,
        balanceAfter,
        businessKey: 'sign-up',
        description: 'Sign-up bonus',
        source: 'sign-up',
        subscriptionId: '',
        plan: '',
      },
      userId,
      at,
      version,
    ),
  spent: (userId: string, amount: number, balanceAfter: number, version: number, at: Date) =>
    delivery(
      topics.ledgerAccount,
      'TokensSpent',
      events.TokensSpent,
      {
        userId,
        amount,
        balanceAfter,
        businessKey: `image:${randomUUID()}`,
        description: 'Image enhancement',
        imageId: randomUUID(),
        purpose: 'enhancement',
        unlimitedPlan: false,
      },
      userId,
      at,
      version,
    ),
  credited: (userId: string, amount: number, balanceAfter: number, version: number, at: Date, paymentId = 'pay-1') =>
    delivery(
      topics.ledgerAccount,
      'TokensCredited',
      events.TokensCredited,
      {
        userId,
        amount,
        balanceAfter,
        businessKey: `payment:${paymentId}`,
        description: 'Token pack',
        paymentId,
        packId: 'main_pack',
      },
      userId,
      at,
      version,
    ),
  reversed: (userId: string, amount: number, balanceAfter: number, version: number, at: Date, paymentId = 'pay-1') =>
    delivery(
      topics.ledgerAccount,
      'TokensReversed',
      events.TokensReversed,
      {
        userId,
        amount,
        balanceAfter,
        businessKey: `reversal:${paymentId}`,
        description: 'Token pack refunded',
        paymentId,
        subscriptionId: '',
      },
      userId,
      at,
      version,
    ),
  adjusted: (
    userId: string,
    operatorId: string,
    direction: 'add' | 'deduct',
    amount: number,
    balanceAfter: number,
    version: number,
    at: Date,
  ) =>
    delivery(
      topics.ledgerAccount,
      'TokensAdjusted',
      events.TokensAdjusted,
      {
        userId,
        amount,
        balanceAfter,
        businessKey: `adjustment:${randomUUID()}`,
        description: 'Adjustment',
        operatorId,
        direction,
      },
      userId,
      at,
      version,
    ),
  disputed: (userId: string, disputeId: string, status: string, at: Date, paymentId = 'pay-disputed') =>
    delivery(
      topics.billingPayment,
      'PaymentDisputed',
      events.PaymentDisputed,
      {
        disputeId,
        paymentId,
        userId,
        kind: 'token_pack',
        status,
        reason: 'fraudulent',
        amountCents: 2400,
        currency: 'usd',
        tokensTakenBack: status === 'needs_response' ? 1500 : 0,
        packName: 'Main',
      },
      userId,
      at,
    ),
  payment: (userId: string, kind: string, at: Date, paymentId = randomUUID()) =>
    delivery(
      topics.billingPayment,
      'PaymentSucceeded',
      events.PaymentSucceeded,
      {
        paymentId,
        userId,
        kind,
        packId: '',
        packName: '',
        tokens: 0,
        amountCents: 499,
        currency: 'usd',
        imageId: '',
        enhancementId: '',
      },
      userId || paymentId,
      at,
    ),
  subscriptionActivated: (userId: string, plan: string, periodEnd: Date, at: Date) =>
    delivery(
      topics.billingSubscription,
      'SubscriptionActivated',
      events.SubscriptionActivated,
      { subscriptionId: `sub_${userId}`, userId, plan, billingPeriod: 'monthly', periodStart: at, periodEnd },
      userId,
      at,
    ),
  generated: (userId: string, at: Date) =>
    delivery(
      topics.imageGeneration,
      'GenerationCompleted',
      events.GenerationCompleted,
      { imageId: randomUUID(), userId, locked: false, width: 2048, height: 2048, format: 'jpeg', attempts: 1 },
      randomUUID(),
      at,
    ),
};

const DAY = 86_400_000;
const PLANS = ['lite', 'studio', 'bulk', 'unlimited'];

/**
 * A deterministic history of `count` events over the year before `now`: sign-ups, profile
 * changes, balances, plans, payments (guest ones too), images and a few deletions, each user's
 * events in order (as one partition would deliver them).
 */
export function generatedHistory(count: number, now: Date, seed = 1): Delivery[] {
  let s = seed;
  const rand = () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
  const out: Delivery[] = [];
  while (out.length < count) {
    const id = `u-${seed}-${out.length}`;
    let at = new Date(now.getTime() - Math.floor(rand() * 365 * DAY));
    const step = () => {
      at = new Date(Math.min(now.getTime() - 1000, at.getTime() + Math.floor(rand() * 20 * DAY)));
      return at;
    };
    const email = `user${out.length}.${seed}@example.com`;
    out.push(ev.registered(id, email, at));
    let balance = 200;
    let version = 1;
    out.push(ev.granted(id, 200, balance, version++, step()));
    if (rand() < 0.5) out.push(ev.profile(id, email, `First${out.length}`, rand() < 0.5 ? 'Last' : '', step()));
    const images = Math.floor(rand() * 4);
    for (let i = 0; i < images && balance >= 100; i++) {
      balance -= 100;
      out.push(ev.spent(id, 100, balance, version++, step()));
      out.push(ev.generated(id, step()));
    }
    if (rand() < 0.3) {
      const plan = PLANS[Math.floor(rand() * PLANS.length)]!;
      out.push(ev.subscriptionActivated(id, plan, new Date(at.getTime() + 30 * DAY), step()));
      out.push(ev.plan(id, plan, 'active', step()));
      if (rand() < 0.2) out.push(ev.plan(id, 'none', 'canceled', step()));
    }
    if (rand() < 0.2) out.push(ev.payment(id, 'token_pack', step()));
    if (rand() < 0.1) out.push(ev.payment('', 'anonymous_enhancement', step()));
    if (rand() < 0.1) {
      balance = Math.max(0, balance - 50);
      out.push(ev.adjusted(id, 'operator-1', 'deduct', 50, balance, version++, step()));
    }
    if (rand() < 0.03) out.push(ev.deleted(id, step()));
  }
  return out.slice(0, count);
}
