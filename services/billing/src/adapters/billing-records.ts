// Billing's tables, read and written inside the caller's transaction.
import { outboxInsertSql, outboxParams, outboxWritten, type OutboxMessage, type Queryable } from '@flatlay/platform';
import type { BillingPeriod } from '../app/catalogue.js';
import type { DisputeRecord, PaymentKind, PaymentRecord } from '../domain/payment.js';
import type { PaidPeriodRecord } from '../domain/plan-dispute.js';
import type { PaidPeriod, SubscriptionRecord } from '../domain/subscription.js';
import type { SubscriptionStatus } from '../domain/subscription-status.js';

/** Serialises the work on one payment or subscription across webhook deliveries and replicas. */
export async function lockKey(tx: Queryable, key: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [key]);
}

/**
 * Claims a webhook event id for this transaction and, when it is new, takes the lock of what the
 * event changes (`lock`, '' for none) in the same round trip. False: the event was handled before
 * (or is being handled: the insert waits for that transaction and then finds its row). Reads of
 * what the lock guards must come in later statements, whose snapshots are taken after the lock.
 */
export async function claimEvent(tx: Queryable, eventId: string, eventType: string, lock: string): Promise<boolean> {
  const { rows } = await tx.query(
    `WITH claimed AS (INSERT INTO webhook_events (event_id, event_type) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1)
     SELECT c.n, CASE WHEN c.n > 0 AND $3 <> '' THEN pg_advisory_xact_lock(hashtext($3)) END IS NULL AS unlocked
     FROM (SELECT count(*)::int AS n FROM claimed) c`,
    [eventId, eventType, lock],
  );
  return rows[0].n === 1;
}

interface SubscriptionRow {
  subscription_id: string;
  user_id: string;
  customer_id: string;
  plan: string;
  billing_period: string;
  status: string;
  cancel_at_period_end: boolean;
  current_period_start: Date | null;
  current_period_end: Date | null;
  as_of: Date;
}

const toSubscription = (r: SubscriptionRow): SubscriptionRecord => ({
  subscriptionId: r.subscription_id,
  userId: r.user_id,
  customerId: r.customer_id,
  plan: r.plan,
  billingPeriod: r.billing_period as BillingPeriod,
  status: r.status as SubscriptionStatus,
  cancelAtPeriodEnd: r.cancel_at_period_end,
  currentPeriodStart: r.current_period_start,
  currentPeriodEnd: r.current_period_end,
  asOf: r.as_of,
});

export async function readSubscription(db: Queryable, subscriptionId: string): Promise<SubscriptionRecord | undefined> {
  const { rows } = await db.query('SELECT * FROM subscriptions WHERE subscription_id = $1', [subscriptionId]);
  return rows[0] ? toSubscription(rows[0]) : undefined;
}

/** The user's subscription that matters: a live one first, else the latest ended one. */
export async function currentSubscriptionOf(db: Queryable, userId: string): Promise<SubscriptionRecord | undefined> {
  const { rows } = await db.query(
    `SELECT * FROM subscriptions WHERE user_id = $1
     ORDER BY (status <> 'canceled') DESC, current_period_end DESC NULLS LAST, as_of DESC LIMIT 1`,
    [userId],
  );
  return rows[0] ? toSubscription(rows[0]) : undefined;
}

export async function writeSubscription(db: Queryable, s: SubscriptionRecord): Promise<void> {
  await db.query(
    `INSERT INTO subscriptions (subscription_id, user_id, customer_id, plan, billing_period, status,
       cancel_at_period_end, current_period_start, current_period_end, as_of)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (subscription_id) DO UPDATE SET user_id = $2, customer_id = $3, plan = $4, billing_period = $5,
       status = $6, cancel_at_period_end = $7, current_period_start = $8, current_period_end = $9, as_of = $10,
       updated_at = now()`,
    [
      s.subscriptionId,
      s.userId,
      s.customerId,
      s.plan,
      s.billingPeriod,
      s.status,
      s.cancelAtPeriodEnd,
      s.currentPeriodStart,
      s.currentPeriodEnd,
      s.asOf,
    ],
  );
}

export async function paidPeriodStarts(db: Queryable, subscriptionId: string): Promise<Set<number>> {
  const { rows } = await db.query('SELECT period_start FROM subscription_periods WHERE subscription_id = $1', [
    subscriptionId,
  ]);
  return new Set(rows.map((r: { period_start: Date }) => r.period_start.getTime()));
}

export async function recordPaidPeriod(db: Queryable, subscriptionId: string, p: PaidPeriod): Promise<void> {
  await db.query(
    `INSERT INTO subscription_periods (subscription_id, period_start, period_end, invoice_id, payment_intent_id,
       charge_id, plan, billing_period) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [subscriptionId, p.start, p.end, p.invoiceId, p.paymentIntentId, p.chargeId, p.plan, p.billingPeriod],
  );
}

/** The paid period a payment intent (or, failing that, a charge) paid, locked for its dispute. */
export async function paidPeriodByPayment(
  db: Queryable,
  paymentIntentId: string,
  chargeId: string,
): Promise<PaidPeriodRecord | undefined> {
  const { rows } = await db.query(
    `SELECT p.subscription_id, s.user_id, p.plan, p.billing_period, s.plan AS subscription_plan,
       s.billing_period AS subscription_billing_period, p.period_start, p.period_end, p.invoice_id,
       p.reversed_by_dispute
     FROM subscription_periods p JOIN subscriptions s USING (subscription_id)
     WHERE ($1 <> '' AND p.payment_intent_id = $1) OR ($2 <> '' AND p.charge_id = $2)
     ORDER BY p.period_start LIMIT 1 FOR UPDATE OF p`,
    [paymentIntentId, chargeId],
  );
  const r = rows[0];
  if (!r) return undefined;
  return {
    subscriptionId: r.subscription_id,
    userId: r.user_id,
    plan: r.plan || r.subscription_plan,
    billingPeriod: r.billing_period || r.subscription_billing_period,
    periodStart: r.period_start,
    periodEnd: r.period_end,
    invoiceId: r.invoice_id,
    reversedByDispute: r.reversed_by_dispute,
  };
}

export async function markPeriodReversed(
  db: Queryable,
  subscriptionId: string,
  periodStart: Date,
  disputeId: string,
): Promise<void> {
  await db.query(
    'UPDATE subscription_periods SET reversed_by_dispute = $3 WHERE subscription_id = $1 AND period_start = $2',
    [subscriptionId, periodStart, disputeId],
  );
}

interface PaymentRow {
  payment_id: string;
  payment_intent_id: string | null;
  kind: string;
  user_id: string | null;
  pack_id: string;
  pack_name: string;
  tokens: number;
  image_id: string;
  enhancement_id: string;
  amount_cents: number;
  currency: string;
  refunded: boolean;
}

const toPayment = (r: PaymentRow): PaymentRecord => ({
  paymentId: r.payment_id,
  checkoutSessionId: r.payment_id,
  paymentIntentId: r.payment_intent_id ?? '',
  kind: r.kind as PaymentKind,
  userId: r.user_id ?? '',
  packId: r.pack_id,
  packName: r.pack_name,
  tokens: r.tokens,
  imageId: r.image_id,
  enhancementId: r.enhancement_id,
  amountCents: r.amount_cents,
  currency: r.currency,
  refunded: r.refunded,
});

export async function readPayment(db: Queryable, paymentId: string): Promise<PaymentRecord | undefined> {
  const { rows } = await db.query('SELECT * FROM payments WHERE payment_id = $1', [paymentId]);
  return rows[0] ? toPayment(rows[0]) : undefined;
}

export async function paymentByIntent(db: Queryable, paymentIntentId: string): Promise<PaymentRecord | undefined> {
  const { rows } = await db.query('SELECT * FROM payments WHERE payment_intent_id = $1', [paymentIntentId]);
  return rows[0] ? toPayment(rows[0]) : undefined;
}

const insertPaymentSql = `INSERT INTO payments (payment_id, payment_intent_id, kind, user_id, pack_id, pack_name, tokens,
     image_id, enhancement_id, amount_cents, currency, refunded)
   VALUES ($1, NULLIF($2, ''), $3, NULLIF($4, ''), $5, $6, $7, $8, $9, $10, $11, $12)`;

const paymentParams = (p: PaymentRecord): unknown[] => [
  p.paymentId,
  p.paymentIntentId,
  p.kind,
  p.userId,
  p.packId,
  p.packName,
  p.tokens,
  p.imageId,
  p.enhancementId,
  p.amountCents,
  p.currency,
  p.refunded,
];

export async function insertPayment(db: Queryable, p: PaymentRecord): Promise<void> {
  await db.query(insertPaymentSql, paymentParams(p));
}

/**
 * Whether a checkout's payment is recorded already; when it is not, takes the full refund that
 * arrived before it (events come in any order), in one round trip. Run under the payment's lock.
 */
export async function paymentOrEarlierRefund(
  db: Queryable,
  paymentId: string,
  paymentIntentId: string,
): Promise<{ recorded: boolean; refundedEarlier: boolean }> {
  const { rows } = await db.query(
    `WITH recorded AS (SELECT 1 FROM payments WHERE payment_id = $1),
     taken AS (DELETE FROM pending_refunds WHERE $2 <> '' AND payment_intent_id = $2 AND NOT EXISTS (SELECT 1 FROM recorded)
       RETURNING 1)
     SELECT EXISTS (SELECT 1 FROM recorded) AS recorded, EXISTS (SELECT 1 FROM taken) AS refunded_earlier`,
    [paymentId, paymentIntentId],
  );
  return { recorded: rows[0].recorded, refundedEarlier: rows[0].refunded_earlier };
}

/** Records a payment and the events it publishes through the outbox in one statement. */
export async function insertPaymentPublishing(
  db: Queryable,
  p: PaymentRecord,
  messages: OutboxMessage[],
): Promise<void> {
  if (messages.length === 0) return insertPayment(db, p);
  await db.query(`WITH payment AS (${insertPaymentSql}) ${outboxInsertSql(13)}`, [
    ...paymentParams(p),
    ...outboxParams(messages),
  ]);
  outboxWritten(db);
}

export async function markRefunded(db: Queryable, paymentId: string): Promise<void> {
  await db.query('UPDATE payments SET refunded = true WHERE payment_id = $1', [paymentId]);
}

export async function readDispute(db: Queryable, disputeId: string): Promise<DisputeRecord | undefined> {
  const { rows } = await db.query(
    'SELECT dispute_id, payment_id, invoice_id, status FROM disputes WHERE dispute_id = $1',
    [disputeId],
  );
  return rows[0]
    ? { disputeId: rows[0].dispute_id, paymentId: rows[0].payment_id ?? rows[0].invoice_id, status: rows[0].status }
    : undefined;
}

export async function writeDispute(
  db: Queryable,
  d: DisputeRecord & { reason: string; amountCents: number; currency: string },
  at: Date,
  /** A plan's dispute: `paymentId` is the invoice, kept apart from the payments it would reference. */
  of: 'payment' | 'invoice' = 'payment',
): Promise<void> {
  await db.query(
    `INSERT INTO disputes (dispute_id, payment_id, invoice_id, status, reason, amount_cents, currency, opened_at,
       updated_at)
     VALUES ($1, $2, $8, $3, $4, $5, $6, $7, $7)
     ON CONFLICT (dispute_id) DO UPDATE SET status = $3, reason = CASE WHEN $4 = '' THEN disputes.reason ELSE $4 END,
       updated_at = $7`,
    [
      d.disputeId,
      of === 'payment' ? d.paymentId : null,
      d.status,
      d.reason,
      d.amountCents,
      d.currency,
      at,
      of === 'invoice' ? d.paymentId : '',
    ],
  );
}

export async function addPendingRefund(db: Queryable, paymentIntentId: string, amount: number): Promise<void> {
  await db.query(
    'INSERT INTO pending_refunds (payment_intent_id, amount_refunded) VALUES ($1, $2) ON CONFLICT DO NOTHING',
    [paymentIntentId, amount],
  );
}

export async function customerOf(db: Queryable, userId: string): Promise<string | undefined> {
  const { rows } = await db.query('SELECT customer_id FROM customers WHERE user_id = $1', [userId]);
  return rows[0]?.customer_id;
}

/** Keeps the first customer a user got (a webhook's checkout names it; nothing to answer). */
export async function keepCustomer(db: Queryable, userId: string, customerId: string): Promise<void> {
  await db.query('INSERT INTO customers (user_id, customer_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
    userId,
    customerId,
  ]);
}

/** Keeps the first customer a user got; answers the one that stands. */
export async function rememberCustomer(db: Queryable, userId: string, customerId: string): Promise<string> {
  await db.query('INSERT INTO customers (user_id, customer_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
    userId,
    customerId,
  ]);
  return (await customerOf(db, userId)) ?? customerId;
}

/** A user's payments, oldest first, for the export of their data (ADR 0403). */
export async function paymentsOfUser(db: Queryable, userId: string): Promise<Array<PaymentRecord & { paidAt: Date }>> {
  const { rows } = await db.query<PaymentRow & { paid_at: Date }>(
    'SELECT * FROM payments WHERE user_id = $1 ORDER BY paid_at, payment_id',
    [userId],
  );
  return rows.map((r) => ({ ...toPayment(r), paidAt: r.paid_at }));
}

/** The subscription periods a user's plans were paid for, oldest first (the invoices). */
export async function subscriptionPeriodsOfUser(db: Queryable, userId: string) {
  const { rows } = await db.query<{
    subscription_id: string;
    plan: string;
    billing_period: string;
    period_start: Date;
    period_end: Date;
    invoice_id: string;
  }>(
    `SELECT p.subscription_id, COALESCE(NULLIF(p.plan, ''), s.plan) AS plan,
            COALESCE(NULLIF(p.billing_period, ''), s.billing_period) AS billing_period,
            p.period_start, p.period_end, p.invoice_id
       FROM subscription_periods p JOIN subscriptions s USING (subscription_id)
      WHERE s.user_id = $1 ORDER BY p.period_start, p.subscription_id`,
    [userId],
  );
  return rows.map((r) => ({
    subscriptionId: r.subscription_id,
    plan: r.plan,
    billingPeriod: r.billing_period,
    periodStart: r.period_start,
    periodEnd: r.period_end,
    invoiceId: r.invoice_id,
  }));
}
