// What a payment provider's webhook event says, in billing's words. Stripe has moved fields
// between API versions (an invoice's subscription, a line's price, a subscription's period), so
// both the older and the newer places are read: events signed with either version mean the same.
import type { SubscriptionStatus } from './subscription-status.js';
import { normaliseStatus } from './subscription-status.js';

export type Metadata = Record<string, string>;

export type BillingFact =
  | {
      type: 'checkout_completed';
      sessionId: string;
      mode: 'payment' | 'subscription';
      paid: boolean;
      customerId: string;
      subscriptionId: string;
      paymentIntentId: string;
      amountTotal: number;
      currency: string;
      /** The address the payer gave at the provider ('' when none): a guest's paid result is mailed there. */
      customerEmail: string;
      metadata: Metadata;
    }
  | {
      type: 'invoice_paid' | 'invoice_payment_failed';
      invoiceId: string;
      subscriptionId: string;
      customerId: string;
      billingReason: string;
      priceId: string;
      periodStart: Date | null;
      periodEnd: Date | null;
      /** What paid the invoice ('' when not said): a dispute of it names the same. */
      paymentIntentId: string;
      chargeId: string;
      /** What was paid (cents) and in which currency: the receipt's amount. */
      amountPaid: number;
      currency: string;
      metadata: Metadata;
    }
  | {
      type: 'subscription_changed';
      deleted: boolean;
      subscriptionId: string;
      customerId: string;
      status: SubscriptionStatus;
      cancelAtPeriodEnd: boolean;
      currentPeriodStart: Date | null;
      currentPeriodEnd: Date | null;
      endedAt: Date | null;
      priceId: string;
      metadata: Metadata;
    }
  | {
      type: 'charge_refunded';
      chargeId: string;
      paymentIntentId: string;
      fullyRefunded: boolean;
      amount: number;
      amountRefunded: number;
      currency: string;
    }
  | {
      type: 'charge_disputed';
      /** opened: charge.dispute.created; funds_withdrawn; closed; updated: any other news of it. */
      stage: 'opened' | 'funds_withdrawn' | 'closed' | 'updated';
      disputeId: string;
      chargeId: string;
      paymentIntentId: string;
      amount: number;
      currency: string;
      reason: string;
      status: string;
    }
  | { type: 'ignored'; eventType: string };

/** The verified event's envelope: id, type, when Stripe created it, and its object. */
export interface ProviderEvent {
  id: string;
  type: string;
  created: number;
  data: { object: unknown };
}

// biome-ignore lint/suspicious/noExplicitAny: webhook objects are untyped JSON, read defensively below
type Json = any;

const str = (v: unknown): string =>
  typeof v === 'string' ? v : v && typeof v === 'object' && 'id' in v ? String((v as { id: unknown }).id) : '';
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const date = (v: unknown): Date | null => (typeof v === 'number' && v > 0 ? new Date(v * 1000) : null);
const meta = (v: unknown): Metadata => {
  const out: Metadata = {};
  if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) if (typeof x === 'string') out[k] = x;
  return out;
};

export function factOf(event: ProviderEvent): BillingFact {
  const o: Json = event.data?.object ?? {};
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      return {
        type: 'checkout_completed',
        sessionId: str(o.id),
        mode: o.mode === 'subscription' ? 'subscription' : 'payment',
        paid: o.payment_status === 'paid' || o.payment_status === 'no_payment_required',
        customerId: str(o.customer),
        subscriptionId: str(o.subscription),
        paymentIntentId: str(o.payment_intent),
        amountTotal: num(o.amount_total),
        currency: str(o.currency) || 'usd',
        customerEmail: str(o.customer_details?.email) || str(o.customer_email),
        metadata: meta(o.metadata),
      };
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const line: Json = o.lines?.data?.find((l: Json) => l?.period) ?? o.lines?.data?.[0] ?? {};
      const details: Json = o.parent?.subscription_details ?? o.subscription_details ?? {};
      // Older API versions put the payment on the invoice; newer ones list it under payments.
      const payment: Json =
        o.payments?.data?.find((p: Json) => p?.payment?.payment_intent || p?.payment?.charge)?.payment ?? {};
      return {
        type: event.type === 'invoice.paid' ? 'invoice_paid' : 'invoice_payment_failed',
        invoiceId: str(o.id),
        subscriptionId: str(details.subscription) || str(o.subscription),
        customerId: str(o.customer),
        billingReason: str(o.billing_reason),
        priceId: str(line.pricing?.price_details?.price) || str(line.price),
        periodStart: date(line.period?.start),
        periodEnd: date(line.period?.end),
        paymentIntentId: str(o.payment_intent) || str(payment.payment_intent),
        chargeId: str(o.charge) || str(payment.charge),
        amountPaid: num(o.amount_paid),
        currency: str(o.currency) || 'usd',
        metadata: { ...meta(line.metadata), ...meta(details.metadata) },
      };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const item: Json = o.items?.data?.[0] ?? {};
      return {
        type: 'subscription_changed',
        deleted: event.type === 'customer.subscription.deleted',
        subscriptionId: str(o.id),
        customerId: str(o.customer),
        status: event.type === 'customer.subscription.deleted' ? 'canceled' : normaliseStatus(str(o.status)),
        cancelAtPeriodEnd: o.cancel_at_period_end === true,
        currentPeriodStart: date(item.current_period_start ?? o.current_period_start),
        currentPeriodEnd: date(item.current_period_end ?? o.current_period_end),
        endedAt: date(o.ended_at) ?? date(o.canceled_at),
        priceId: str(item.price),
        metadata: meta(o.metadata),
      };
    }
    case 'charge.refunded':
      return {
        type: 'charge_refunded',
        chargeId: str(o.id),
        paymentIntentId: str(o.payment_intent),
        fullyRefunded: o.refunded === true,
        amount: num(o.amount),
        amountRefunded: num(o.amount_refunded),
        currency: str(o.currency) || 'usd',
      };
    case 'charge.dispute.created':
    case 'charge.dispute.funds_withdrawn':
    case 'charge.dispute.funds_reinstated':
    case 'charge.dispute.updated':
    case 'charge.dispute.closed':
      return {
        type: 'charge_disputed',
        stage:
          event.type === 'charge.dispute.created'
            ? 'opened'
            : event.type === 'charge.dispute.funds_withdrawn'
              ? 'funds_withdrawn'
              : event.type === 'charge.dispute.closed'
                ? 'closed'
                : 'updated',
        disputeId: str(o.id),
        chargeId: str(o.charge),
        paymentIntentId: str(o.payment_intent),
        amount: num(o.amount),
        currency: str(o.currency) || 'usd',
        reason: str(o.reason),
        status: str(o.status),
      };
    default:
      return { type: 'ignored', eventType: event.type };
  }
}
