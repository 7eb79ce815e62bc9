// A chargeback of a plan's payment. Pure: the dispute fact, the subscription period its payment
// paid and what billing knows of the dispute come in; the period to mark reversed, the dispute to
// record and the events to publish go out.
//
// As for a pack (decideDispute): a dispute opened (or its funds withdrawn) takes back what the
// period granted, once per period whatever came first (a second delivery, the funds_withdrawn
// after the opening, or a second dispute of the same payment move nothing more); every dispute and
// each change of its status is recorded and published for the operator.
import type { BillingPeriod } from '../app/catalogue.js';
import type { BillingFact } from './billing-facts.js';
import type { DisputeRecord, PaymentEvent } from './payment.js';
import type { SubscriptionEvent } from './subscription.js';

type ChargeDisputed = Extract<BillingFact, { type: 'charge_disputed' }>;

/** A paid subscription period as billing recorded it, with the dispute that reversed it, if any. */
export interface PaidPeriodRecord {
  subscriptionId: string;
  userId: string;
  plan: string;
  billingPeriod: BillingPeriod;
  periodStart: Date;
  periodEnd: Date;
  invoiceId: string;
  /** The dispute whose take-back reversed the period; '' while none has. */
  reversedByDispute: string;
}

export type PlanDisputeDecision =
  | { outcome: 'none' }
  | {
      outcome: 'recorded';
      /** The period is reversed by this event (mark it, publish PlanPeriodReversed). */
      reversed: boolean;
      dispute: DisputeRecord;
      subscriptionEvents: SubscriptionEvent[];
      paymentEvents: PaymentEvent[];
    };

export function decidePlanDispute(
  fact: ChargeDisputed,
  period: PaidPeriodRecord,
  known: DisputeRecord | undefined,
): PlanDisputeDecision {
  if (!fact.disputeId) return { outcome: 'none' };
  const reverses = (fact.stage === 'opened' || fact.stage === 'funds_withdrawn') && !period.reversedByDispute;
  const status = fact.status || (known?.status ?? 'needs_response');
  if (!reverses && known?.status === status) return { outcome: 'none' };
  const subscriptionEvents: SubscriptionEvent[] = reverses
    ? [
        {
          type: 'PlanPeriodReversed',
          data: {
            subscriptionId: period.subscriptionId,
            userId: period.userId,
            plan: period.plan,
            billingPeriod: period.billingPeriod,
            periodStart: period.periodStart,
            periodEnd: period.periodEnd,
            disputeId: fact.disputeId,
          },
        },
      ]
    : [];
  return {
    outcome: 'recorded',
    reversed: reverses,
    dispute: { disputeId: fact.disputeId, paymentId: period.invoiceId, status },
    subscriptionEvents,
    paymentEvents: [
      {
        type: 'PaymentDisputed',
        key: period.userId,
        data: {
          disputeId: fact.disputeId,
          paymentId: period.invoiceId,
          userId: period.userId,
          kind: 'subscription',
          status,
          reason: fact.reason,
          amountCents: fact.amount,
          currency: fact.currency,
          // The ledger tells what it took back (its history); billing does not count plan tokens.
          tokensTakenBack: 0,
          packName: '',
        },
      },
    ],
  };
}
