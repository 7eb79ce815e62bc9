// How a subscription moves with the payment provider's facts, and what billing tells the others.
// Pure: the record, the periods already paid and the plan come in; a new record, the period to
// mark paid and the events to publish go out.
//
// - Each paid period grants its plan's tokens once: the first paid invoice publishes
//   SubscriptionActivated, every later one SubscriptionRenewed, each at most once per period start.
// - Status follows the newest provider event (its creation time): an older event delivered late
//   changes no status, so retries and out-of-order delivery end in the same state.
// - Cancelling at the period's end keeps the plan active until then; the end itself arrives as
//   the subscription's deletion and publishes SubscriptionCanceled (immediate: access ends now).
import type { BillingPeriod } from '../app/catalogue.js';
import type { BillingFact } from './billing-facts.js';
import type { SubscriptionStatus } from './subscription-status.js';

export interface SubscriptionRecord {
  subscriptionId: string;
  userId: string;
  customerId: string;
  plan: string;
  billingPeriod: BillingPeriod;
  status: SubscriptionStatus;
  cancelAtPeriodEnd: boolean;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  /** Creation time of the newest provider event that set the status. */
  asOf: Date;
}

export type PlanRef = { plan: string; billingPeriod: BillingPeriod };

export type SubscriptionEvent =
  | {
      type: 'SubscriptionActivated' | 'SubscriptionRenewed';
      data: {
        subscriptionId: string;
        userId: string;
        plan: string;
        billingPeriod: BillingPeriod;
        periodStart: Date;
        periodEnd: Date;
      };
    }
  | {
      type: 'SubscriptionStatusChanged';
      data: {
        subscriptionId: string;
        userId: string;
        plan: string;
        billingPeriod: BillingPeriod;
        status: SubscriptionStatus;
        currentPeriodEnd: Date | undefined;
        cancelAtPeriodEnd: boolean;
        stripeCustomerId: string;
      };
    }
  | {
      /** A period's payment was disputed: the ledger takes back what the period granted. */
      type: 'PlanPeriodReversed';
      data: {
        subscriptionId: string;
        userId: string;
        plan: string;
        billingPeriod: BillingPeriod;
        periodStart: Date;
        periodEnd: Date;
        disputeId: string;
      };
    }
  | {
      type: 'SubscriptionCanceled';
      data: { subscriptionId: string; userId: string; plan: string; immediate: boolean; effectiveAt: Date };
    };

/** A paid period: what it granted, and what paid it (so a dispute of that payment can find it). */
export interface PaidPeriod {
  start: Date;
  end: Date;
  plan: string;
  billingPeriod: BillingPeriod;
  invoiceId: string;
  paymentIntentId: string;
  chargeId: string;
}

export type SubscriptionFact = Extract<
  BillingFact,
  { type: 'checkout_completed' | 'invoice_paid' | 'invoice_payment_failed' | 'subscription_changed' }
>;

export interface SubscriptionInput {
  record: SubscriptionRecord | undefined;
  /** Start times (ms) of the periods already paid and granted. */
  paidPeriodStarts: ReadonlySet<number>;
  fact: SubscriptionFact;
  /** The plan the fact's price (or its checkout metadata) names, when billing knows it. */
  plan: PlanRef | undefined;
  /** When the provider created the event. */
  at: Date;
}

export type SubscriptionDecision =
  | { refused: string }
  | {
      record: SubscriptionRecord;
      paidPeriod?: PaidPeriod;
      events: SubscriptionEvent[];
    };

const sameTime = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);

const visibleChange = (a: SubscriptionRecord, b: SubscriptionRecord) =>
  a.status !== b.status ||
  a.cancelAtPeriodEnd !== b.cancelAtPeriodEnd ||
  a.plan !== b.plan ||
  a.billingPeriod !== b.billingPeriod ||
  !sameTime(a.currentPeriodEnd, b.currentPeriodEnd);

export function decideSubscription(input: SubscriptionInput): SubscriptionDecision {
  const { record, fact, at } = input;
  const subscriptionId = fact.type === 'checkout_completed' ? fact.subscriptionId : fact.subscriptionId;
  if (!subscriptionId) return { refused: `${fact.type}: no subscription id` };
  const userId = fact.metadata.user_id || record?.userId;
  if (!userId) return { refused: `${fact.type}: subscription ${subscriptionId} names no user` };
  const plan = input.plan ?? (record ? { plan: record.plan, billingPeriod: record.billingPeriod } : undefined);
  if (!plan) return { refused: `${fact.type}: subscription ${subscriptionId} names no plan billing sells` };

  const before: SubscriptionRecord = record ?? {
    subscriptionId,
    userId,
    customerId: fact.customerId,
    plan: plan.plan,
    billingPeriod: plan.billingPeriod,
    status: 'active',
    cancelAtPeriodEnd: false,
    currentPeriodStart: null,
    currentPeriodEnd: null,
    asOf: new Date(0),
  };
  const base: SubscriptionRecord = { ...before, customerId: before.customerId || fact.customerId };
  const newer = at.getTime() >= base.asOf.getTime();

  switch (fact.type) {
    case 'checkout_completed':
      return { record: base, events: [] };

    case 'invoice_paid': {
      if (!fact.periodStart || !fact.periodEnd) return { refused: `invoice ${fact.invoiceId} has no period` };
      const next = { ...base, ...plan };
      if (!next.currentPeriodEnd || fact.periodEnd.getTime() > next.currentPeriodEnd.getTime()) {
        next.currentPeriodStart = fact.periodStart;
        next.currentPeriodEnd = fact.periodEnd;
      }
      if (newer && next.status !== 'canceled') {
        next.status = 'active';
        next.asOf = at;
      }
      if (input.paidPeriodStarts.has(fact.periodStart.getTime())) return { record: next, events: [] };
      const type = fact.billingReason === 'subscription_create' ? 'SubscriptionActivated' : 'SubscriptionRenewed';
      return {
        record: next,
        paidPeriod: {
          start: fact.periodStart,
          end: fact.periodEnd,
          ...plan,
          invoiceId: fact.invoiceId,
          paymentIntentId: fact.paymentIntentId,
          chargeId: fact.chargeId,
        },
        events: [
          {
            type,
            data: {
              subscriptionId,
              userId: next.userId,
              ...plan,
              periodStart: fact.periodStart,
              periodEnd: fact.periodEnd,
            },
          },
        ],
      };
    }

    case 'invoice_payment_failed': {
      if (!newer || base.status === 'canceled') return { record: base, events: [] };
      const next: SubscriptionRecord = { ...base, status: 'past_due', asOf: at };
      return { record: next, events: statusEvents(base, next, at) };
    }

    case 'subscription_changed': {
      if (!newer) return { record: base, events: [] };
      const next: SubscriptionRecord = {
        ...base,
        ...(input.plan ?? {}),
        status: fact.deleted ? 'canceled' : fact.status,
        cancelAtPeriodEnd: fact.deleted ? false : fact.cancelAtPeriodEnd,
        currentPeriodStart: fact.currentPeriodStart ?? base.currentPeriodStart,
        currentPeriodEnd: fact.currentPeriodEnd ?? base.currentPeriodEnd,
        asOf: at,
      };
      // A canceled subscription stays canceled: Stripe never revives one.
      if (base.status === 'canceled' && record) return { record: { ...base, asOf: at }, events: [] };
      return { record: next, events: statusEvents(base, next, fact.endedAt ?? at) };
    }
  }
}

function statusEvents(before: SubscriptionRecord, after: SubscriptionRecord, endedAt: Date): SubscriptionEvent[] {
  if (!visibleChange(before, after)) return [];
  const events: SubscriptionEvent[] = [
    {
      type: 'SubscriptionStatusChanged',
      data: {
        subscriptionId: after.subscriptionId,
        userId: after.userId,
        plan: after.plan,
        billingPeriod: after.billingPeriod,
        status: after.status,
        currentPeriodEnd: after.currentPeriodEnd ?? undefined,
        cancelAtPeriodEnd: after.cancelAtPeriodEnd,
        stripeCustomerId: after.customerId,
      },
    },
  ];
  if (after.status === 'canceled' && before.status !== 'canceled')
    events.push({
      type: 'SubscriptionCanceled',
      data: {
        subscriptionId: after.subscriptionId,
        userId: after.userId,
        plan: after.plan,
        immediate: true,
        effectiveAt: endedAt,
      },
    });
  return events;
}

/**
 * The user asked to cancel at the period's end and the provider accepted: the record says so at
 * once (the provider's own event, when it comes, then changes nothing). Its status time stays, so
 * the provider's later events still apply.
 */
export function cancelAtPeriodEnd(record: SubscriptionRecord): {
  record: SubscriptionRecord;
  events: SubscriptionEvent[];
} {
  const next = { ...record, cancelAtPeriodEnd: true };
  return { record: next, events: statusEvents(record, next, record.asOf) };
}
