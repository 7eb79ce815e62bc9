// One-off payments (token packs, unlocks) and their refunds. Pure: the checkout's facts and what
// billing already recorded come in; the payment to record and the events to publish go out.
//
// Refund policy: a token pack refunded in full gives back its tokens as far as they are unspent
// (the ledger takes at most the balance, never below 0); a partial refund is a goodwill gesture and
// takes no tokens. Subscription fees are not refundable, so a refunded subscription invoice changes
// no tokens either. An unlock's refund is published too, for the image service to decide on.
//
// Chargebacks: a dispute opened on a payment (or its funds withdrawn) takes back like a full refund,
// once per payment whichever comes first; the dispute itself is recorded for the operator with
// every change of its status. A dispute won later gives nothing back by itself: the operator decides
// (an adjustment), seeing the dispute's outcome.
import type { BillingFact } from './billing-facts.js';

export type PaymentKind = 'token_pack' | 'image_unlock' | 'anonymous_enhancement';

export interface PaymentRecord {
  paymentId: string;
  checkoutSessionId: string;
  paymentIntentId: string;
  kind: PaymentKind;
  userId: string;
  packId: string;
  packName: string;
  tokens: number;
  imageId: string;
  enhancementId: string;
  amountCents: number;
  currency: string;
  refunded: boolean;
}

export type PaymentEvent =
  | {
      type: 'PaymentSucceeded';
      key: string;
      data: Omit<PaymentRecord, 'checkoutSessionId' | 'paymentIntentId' | 'refunded'>;
    }
  | {
      type: 'PaymentRefunded';
      key: string;
      data: {
        paymentId: string;
        userId: string;
        kind: PaymentKind;
        packId: string;
        packName: string;
        tokens: number;
        amountRefundedCents: number;
        currency: string;
      };
    }
  | {
      type: 'PaymentDisputed';
      key: string;
      data: {
        disputeId: string;
        /** The payment; for a plan's dispute, the invoice it paid. */
        paymentId: string;
        userId: string;
        kind: PaymentKind | 'subscription';
        status: string;
        reason: string;
        amountCents: number;
        currency: string;
        tokensTakenBack: number;
        packName: string;
      };
    }
  | {
      type: 'ImageUnlockPaid';
      key: string;
      data: { paymentId: string; userId: string; imageId: string; amountCents: number; currency: string };
    }
  | {
      type: 'AnonymousEnhancementPaid';
      key: string;
      data: { paymentId: string; enhancementId: string; amountCents: number; currency: string };
    };

type CheckoutCompleted = Extract<BillingFact, { type: 'checkout_completed' }>;
type ChargeRefunded = Extract<BillingFact, { type: 'charge_refunded' }>;
type ChargeDisputed = Extract<BillingFact, { type: 'charge_disputed' }>;

export type PaymentDecision = { refused: string } | { payment: PaymentRecord; events: PaymentEvent[] };

const kinds: readonly PaymentKind[] = ['token_pack', 'image_unlock', 'anonymous_enhancement'];

/** The aggregate a payment's events are keyed by: the user, or the guest's enhancement. */
const keyOf = (p: Pick<PaymentRecord, 'userId' | 'enhancementId' | 'paymentId'>) =>
  p.userId || p.enhancementId || p.paymentId;

/**
 * A completed one-off checkout. `pack` is the catalogue's pack named in the metadata (the tokens
 * the buyer saw at checkout win when the metadata carries them). `refundedEarlier` says a full
 * refund for this payment arrived before the payment itself (out-of-order delivery).
 */
export function decidePayment(
  fact: CheckoutCompleted,
  pack: { id: string; name: string; tokens: number } | undefined,
  refundedEarlier: boolean,
): PaymentDecision {
  if (!fact.paid) return { refused: `checkout ${fact.sessionId} is not paid yet` };
  const m = fact.metadata;
  const kind = m.kind as PaymentKind;
  if (!kinds.includes(kind)) return { refused: `checkout ${fact.sessionId} sells nothing billing knows (${m.kind})` };
  const tokens = Number.parseInt(m.tokens ?? '', 10);
  const payment: PaymentRecord = {
    paymentId: fact.sessionId,
    checkoutSessionId: fact.sessionId,
    paymentIntentId: fact.paymentIntentId,
    kind,
    userId: m.user_id ?? '',
    packId: kind === 'token_pack' ? (m.pack_id ?? '') : '',
    packName: kind === 'token_pack' ? (pack?.name ?? m.pack_name ?? '') : '',
    tokens: kind === 'token_pack' ? (Number.isInteger(tokens) && tokens > 0 ? tokens : (pack?.tokens ?? 0)) : 0,
    imageId: kind === 'image_unlock' ? (m.image_id ?? '') : '',
    enhancementId: kind === 'anonymous_enhancement' ? (m.enhancement_id ?? '') : '',
    amountCents: fact.amountTotal,
    currency: fact.currency,
    refunded: refundedEarlier,
  };
  if (kind === 'token_pack' && (!payment.userId || !payment.packId || payment.tokens <= 0))
    return { refused: `checkout ${fact.sessionId}: a token pack needs a user, a pack and its tokens` };
  if (kind === 'image_unlock' && (!payment.userId || !payment.imageId))
    return { refused: `checkout ${fact.sessionId}: an image unlock needs a user and an image` };
  if (kind === 'anonymous_enhancement' && !payment.enhancementId)
    return { refused: `checkout ${fact.sessionId}: a guest unlock needs an enhancement` };

  const key = keyOf(payment);
  const { checkoutSessionId: _s, paymentIntentId: _p, refunded: _r, ...data } = payment;
  const events: PaymentEvent[] = [{ type: 'PaymentSucceeded', key, data }];
  if (kind === 'image_unlock')
    events.push({
      type: 'ImageUnlockPaid',
      key,
      data: {
        paymentId: payment.paymentId,
        userId: payment.userId,
        imageId: payment.imageId,
        amountCents: payment.amountCents,
        currency: payment.currency,
      },
    });
  if (kind === 'anonymous_enhancement')
    events.push({
      type: 'AnonymousEnhancementPaid',
      key,
      data: {
        paymentId: payment.paymentId,
        enhancementId: payment.enhancementId,
        amountCents: payment.amountCents,
        currency: payment.currency,
      },
    });
  if (refundedEarlier) events.push(refundEvent(payment, payment.amountCents));
  return { payment, events };
}

/**
 * A charge refunded. Undefined `payment`: the payment's own event has not arrived yet, so the
 * refund waits for it ('pending'). Only a full refund of a payment not refunded before counts.
 */
export function decideRefund(
  fact: ChargeRefunded,
  payment: PaymentRecord | undefined,
):
  | { outcome: 'pending' }
  | { outcome: 'none' }
  | { outcome: 'refunded'; payment: PaymentRecord; events: PaymentEvent[] } {
  if (!fact.fullyRefunded || !fact.paymentIntentId) return { outcome: 'none' };
  if (!payment) return { outcome: 'pending' };
  if (payment.refunded) return { outcome: 'none' };
  const refunded = { ...payment, refunded: true };
  return { outcome: 'refunded', payment: refunded, events: [refundEvent(refunded, fact.amountRefunded)] };
}

/** What billing knows of a dispute already: its last recorded status, or undefined when new. */
export type DisputeRecord = { disputeId: string; paymentId: string; status: string };

/**
 * A dispute event. Undefined `payment`: the payment is not recorded yet (events come in any order),
 * so an opened dispute waits as a pending full refund. Otherwise: the payment is taken back (marked
 * refunded, PaymentRefunded published) when the dispute is opened or its funds withdrawn and no
 * refund or earlier dispute event took it back; the dispute is recorded (PaymentDisputed) when it is
 * new or its status changed. A second delivery, or news after a refund, moves no tokens.
 */
export function decideDispute(
  fact: ChargeDisputed,
  payment: PaymentRecord | undefined,
  known: DisputeRecord | undefined,
):
  | { outcome: 'pending' }
  | { outcome: 'none' }
  | {
      outcome: 'recorded';
      payment: PaymentRecord;
      dispute: DisputeRecord;
      takenBack: boolean;
      events: PaymentEvent[];
    } {
  if (!fact.disputeId || !fact.paymentIntentId) return { outcome: 'none' };
  if (!payment)
    return fact.stage === 'opened' || fact.stage === 'funds_withdrawn' ? { outcome: 'pending' } : { outcome: 'none' };
  const takesBack = (fact.stage === 'opened' || fact.stage === 'funds_withdrawn') && !payment.refunded;
  const status = fact.status || (known?.status ?? 'needs_response');
  if (!takesBack && known?.status === status) return { outcome: 'none' };
  const after = takesBack ? { ...payment, refunded: true } : payment;
  const events: PaymentEvent[] = takesBack ? [refundEvent(after, fact.amount || payment.amountCents)] : [];
  events.push({
    type: 'PaymentDisputed',
    key: keyOf(payment),
    data: {
      disputeId: fact.disputeId,
      paymentId: payment.paymentId,
      userId: payment.userId,
      kind: payment.kind,
      status,
      reason: fact.reason,
      amountCents: fact.amount,
      currency: fact.currency,
      tokensTakenBack: takesBack && payment.kind === 'token_pack' ? payment.tokens : 0,
      packName: payment.packName,
    },
  });
  return {
    outcome: 'recorded',
    payment: after,
    dispute: { disputeId: fact.disputeId, paymentId: payment.paymentId, status },
    takenBack: takesBack,
    events,
  };
}

function refundEvent(p: PaymentRecord, amountRefunded: number): PaymentEvent {
  return {
    type: 'PaymentRefunded',
    key: keyOf(p),
    data: {
      paymentId: p.paymentId,
      userId: p.userId,
      kind: p.kind,
      packId: p.packId,
      packName: p.packName,
      tokens: p.tokens,
      amountRefundedCents: amountRefunded,
      currency: p.currency,
    },
  };
}
