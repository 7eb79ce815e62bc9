// Stripe-shaped webhook events for tests, signed as Stripe signs them.
import { randomUUID } from 'node:crypto';
import { signWebhook } from '../../src/app/webhook-signature.js';

export interface SignedEvent {
  id: string;
  type: string;
  payload: Buffer;
  signature: string;
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

export function signed(secret: string, type: string, object: Record<string, unknown>, created: Date): SignedEvent {
  const id = `evt_${randomUUID().replaceAll('-', '')}`;
  const json = JSON.stringify({ id, object: 'event', type, created: seconds(created), data: { object } });
  return { id, type, payload: Buffer.from(json), signature: signWebhook(json, secret) };
}

export const checkoutCompleted = (o: {
  sessionId: string;
  mode: 'payment' | 'subscription';
  customer: string;
  metadata: Record<string, string>;
  amount: number;
  paymentIntent?: string;
  subscription?: string;
}) => ({
  id: o.sessionId,
  object: 'checkout.session',
  mode: o.mode,
  status: 'complete',
  payment_status: 'paid',
  customer: o.customer,
  payment_intent: o.paymentIntent ?? null,
  subscription: o.subscription ?? null,
  amount_total: o.amount,
  currency: 'usd',
  metadata: o.metadata,
});

/** An invoice in the newer API shape (parent.subscription_details, line pricing). */
export const invoice = (o: {
  subscription: string;
  customer: string;
  priceId: string;
  start: Date;
  end: Date;
  reason: 'subscription_create' | 'subscription_cycle';
  metadata: Record<string, string>;
  /** What paid it: newer API versions list it under the invoice's payments. */
  paymentIntent?: string;
}) => ({
  id: `in_${randomUUID().slice(0, 8)}`,
  object: 'invoice',
  billing_reason: o.reason,
  customer: o.customer,
  ...(o.paymentIntent
    ? { payments: { data: [{ payment: { type: 'payment_intent', payment_intent: o.paymentIntent } }] } }
    : {}),
  parent: {
    type: 'subscription_details',
    subscription_details: { subscription: o.subscription, metadata: o.metadata },
  },
  lines: {
    data: [
      { period: { start: seconds(o.start), end: seconds(o.end) }, pricing: { price_details: { price: o.priceId } } },
    ],
  },
});

/** An invoice in the older API shape (invoice.subscription, line.price). */
export const legacyInvoice = (o: Parameters<typeof invoice>[0]) => ({
  id: `in_${randomUUID().slice(0, 8)}`,
  object: 'invoice',
  billing_reason: o.reason,
  customer: o.customer,
  subscription: o.subscription,
  payment_intent: o.paymentIntent ?? null,
  subscription_details: { metadata: o.metadata },
  lines: { data: [{ period: { start: seconds(o.start), end: seconds(o.end) }, price: { id: o.priceId } }] },
});

export const subscriptionObject = (o: {
  subscription: string;
  customer: string;
  priceId: string;
  status: string;
  cancelAtPeriodEnd: boolean;
  start: Date;
  end: Date;
  metadata: Record<string, string>;
}) => ({
  id: o.subscription,
  object: 'subscription',
  customer: o.customer,
  status: o.status,
  cancel_at_period_end: o.cancelAtPeriodEnd,
  metadata: o.metadata,
  items: {
    data: [{ price: { id: o.priceId }, current_period_start: seconds(o.start), current_period_end: seconds(o.end) }],
  },
});

export const chargeRefunded = (o: { paymentIntent: string; amount: number; refunded?: number }) => ({
  id: `ch_${randomUUID().slice(0, 8)}`,
  object: 'charge',
  payment_intent: o.paymentIntent,
  amount: o.amount,
  amount_refunded: o.refunded ?? o.amount,
  refunded: (o.refunded ?? o.amount) === o.amount,
  currency: 'usd',
});

/** A dispute (chargeback) of a payment's charge, as charge.dispute.* events carry it. */
export const dispute = (o: { id: string; paymentIntent: string; amount: number; status: string; reason?: string }) => ({
  id: o.id,
  object: 'dispute',
  charge: `ch_${o.paymentIntent.slice(3, 11)}`,
  payment_intent: o.paymentIntent,
  amount: o.amount,
  currency: 'usd',
  reason: o.reason ?? 'fraudulent',
  status: o.status,
  is_charge_refundable: false,
});

/** Three deliveries of each event, in an order unlike the original (reversed, then interleaved). */
export function threeTimesOutOfOrder<T>(events: T[]): T[] {
  const reversed = [...events].reverse();
  const interleaved = events.flatMap((e, i) => [e, reversed[i]!]);
  return [...reversed, ...interleaved];
}
