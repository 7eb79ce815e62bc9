// The one webhook handler: Stripe's events and the local provider's take the same path. Each event
// id is handled once, in the same transaction as its effects and the outbox rows they publish.
import { queueGuestResultLink, queueReceipt } from './receipt-mail.js';
import { AppError, enqueueOutbox, withTransaction, type Logger, type Pool, type Queryable } from '@flatlay/platform';
import type { Catalogue } from './catalogue.js';
import { factOf, type BillingFact, type ProviderEvent } from '../domain/billing-facts.js';
import { decideDispute, decidePayment, decideRefund } from '../domain/payment.js';
import { decidePlanDispute, type PaidPeriodRecord } from '../domain/plan-dispute.js';
import { decideSubscription, type PlanRef, type SubscriptionFact } from '../domain/subscription.js';
import { paymentMessage, subscriptionMessage } from './billing-events.js';
import * as records from '../adapters/billing-records.js';
import { verifyWebhook } from './webhook-signature.js';
import { countWebhook } from './billing-metrics.js';

export interface WebhookResult {
  duplicate: boolean;
  eventType: string;
}

export class Webhooks {
  constructor(
    private readonly pool: Pool,
    private readonly catalogue: Catalogue,
    private readonly secret: () => string | undefined,
    private readonly logger: Logger,
  ) {}

  async handle(payload: Uint8Array, signature: string): Promise<WebhookResult> {
    const secret = this.secret();
    if (!secret || !signature) countWebhook(undefined, 'rejected');
    if (!secret) throw new AppError('NOT_CONFIGURED', 'Payment webhooks are not configured');
    if (!signature) throw new AppError('INVALID_ARGUMENT', 'Missing Stripe-Signature header');
    let event: ProviderEvent;
    try {
      event = verifyWebhook(payload, signature, secret);
    } catch (error) {
      countWebhook(undefined, 'bad_signature');
      throw error;
    }
    return this.handleVerified(event);
  }

  /** An event whose signature was checked. */
  async handleVerified(event: ProviderEvent): Promise<WebhookResult> {
    if (!event?.id || !event.type) {
      countWebhook(undefined, 'rejected');
      throw new AppError('INVALID_ARGUMENT', 'Not a webhook event');
    }
    const fact = factOf(event);
    const at = new Date((event.created || 0) * 1000);
    try {
      const { result, refused } = await withTransaction(this.pool, async (tx) => {
        if (!(await records.claimEvent(tx, event.id, event.type, lockOf(fact))))
          return { result: { duplicate: true, eventType: event.type }, refused: false };
        const refusal = await this.apply(tx, fact, at, event.id);
        // A refusal is a fact about the event, not a fault: it is logged and the event counts as handled.
        if (refusal)
          this.logger.warn({ eventId: event.id, type: event.type, reason: refusal }, 'webhook event refused');
        return { result: { duplicate: false, eventType: event.type }, refused: refusal !== undefined };
      });
      // Counted once committed: a rolled-back attempt is the provider's to send again.
      countWebhook(fact, result.duplicate ? 'duplicate' : refused ? 'refused' : 'applied');
      return result;
    } catch (error) {
      countWebhook(fact, 'error');
      throw error;
    }
  }

  /** Runs under the lock of what the fact changes (claimEvent took it). */
  private async apply(tx: Queryable, fact: BillingFact, at: Date, eventId: string): Promise<string | undefined> {
    switch (fact.type) {
      case 'checkout_completed':
        if (fact.customerId && fact.metadata.user_id)
          await records.keepCustomer(tx, fact.metadata.user_id, fact.customerId);
        return fact.mode === 'subscription'
          ? this.applySubscription(tx, fact, at, eventId)
          : this.applyPayment(tx, fact, at, eventId);
      case 'invoice_paid':
      case 'invoice_payment_failed':
      case 'subscription_changed':
        return this.applySubscription(tx, fact, at, eventId);
      case 'charge_refunded':
        return this.applyRefund(tx, fact, at, eventId);
      case 'charge_disputed':
        return this.applyDispute(tx, fact, at, eventId);
      case 'ignored':
        return undefined;
    }
  }

  /** The plan a subscription fact names: its price, else what its checkout recorded in metadata. */
  private planOf(fact: SubscriptionFact): PlanRef | undefined {
    const priceId = 'priceId' in fact ? fact.priceId : '';
    const product = priceId ? this.catalogue.anyProductByPriceId(priceId) : undefined;
    if (product?.kind === 'plan') return { plan: product.plan.id, billingPeriod: product.period };
    const { plan, billing_period } = fact.metadata;
    if (plan && this.catalogue.plan(plan) && (billing_period === 'monthly' || billing_period === 'yearly'))
      return { plan, billingPeriod: billing_period };
    return undefined;
  }

  private async applySubscription(tx: Queryable, fact: SubscriptionFact, at: Date, eventId: string) {
    const subscriptionId = fact.subscriptionId;
    if (!subscriptionId) return `${fact.type}: no subscription id`;
    const decision = decideSubscription({
      record: await records.readSubscription(tx, subscriptionId),
      paidPeriodStarts: await records.paidPeriodStarts(tx, subscriptionId),
      fact,
      plan: this.planOf(fact),
      at,
    });
    if ('refused' in decision) return decision.refused;
    await records.writeSubscription(tx, decision.record);
    if (decision.paidPeriod) {
      await records.recordPaidPeriod(tx, subscriptionId, decision.paidPeriod);
      // A paid period is a paid invoice: its receipt, in the same transaction (none when no amount is said).
      if (fact.type === 'invoice_paid' && fact.amountPaid > 0) {
        const plan = this.planOf(fact);
        const name = plan ? (this.catalogue.plan(plan.plan)?.name ?? plan.plan) : 'Subscription';
        await queueReceipt(tx, {
          userId: decision.record.userId,
          paymentId: fact.invoiceId,
          what: plan ? `${name} plan (${plan.billingPeriod})` : name,
          amountCents: fact.amountPaid,
          currency: fact.currency,
          paidAt: at,
        });
      }
    }
    await enqueueOutbox(
      tx,
      decision.events.map((e) => subscriptionMessage(e, at, eventId)),
    );
    return undefined;
  }

  private async applyPayment(
    tx: Queryable,
    fact: Extract<BillingFact, { type: 'checkout_completed' }>,
    at: Date,
    eventId: string,
  ) {
    const { recorded, refundedEarlier } = await records.paymentOrEarlierRefund(
      tx,
      fact.sessionId,
      fact.paymentIntentId,
    );
    if (recorded) return undefined;
    const packId = fact.metadata.pack_id;
    const pack = packId ? this.catalogue.config.token_packs.find((p) => p.id === packId) : undefined;
    const decision = decidePayment(fact, pack, refundedEarlier);
    if ('refused' in decision) return decision.refused;
    await records.insertPaymentPublishing(
      tx,
      decision.payment,
      decision.events.map((e) => paymentMessage(e, at, eventId)),
    );
    const p = decision.payment;
    // The receipt commits with the payment (a guest's payment has no user, and no receipt yet).
    await queueReceipt(tx, {
      userId: p.userId,
      paymentId: p.paymentId,
      what:
        p.kind === 'token_pack'
          ? `${p.packName || 'Token pack'} (${p.tokens} tokens)`
          : 'Unlock of a full-resolution image',
      amountCents: p.amountCents,
      currency: p.currency,
      paidAt: at,
    });
    if (p.kind === 'anonymous_enhancement')
      await queueGuestResultLink(tx, {
        email: fact.customerEmail,
        enhancementId: p.enhancementId,
        amountCents: p.amountCents,
        currency: p.currency,
      });
    return undefined;
  }

  private async applyRefund(
    tx: Queryable,
    fact: Extract<BillingFact, { type: 'charge_refunded' }>,
    at: Date,
    eventId: string,
  ) {
    if (!fact.paymentIntentId) return undefined;
    const decision = decideRefund(fact, await records.paymentByIntent(tx, fact.paymentIntentId));
    if (decision.outcome === 'pending') await records.addPendingRefund(tx, fact.paymentIntentId, fact.amountRefunded);
    if (decision.outcome !== 'refunded') return undefined;
    await records.markRefunded(tx, decision.payment.paymentId);
    await enqueueOutbox(
      tx,
      decision.events.map((e) => paymentMessage(e, at, eventId)),
    );
    return undefined;
  }

  /** A chargeback: taken back like a full refund (once per payment), and recorded for the operator. */
  private async applyDispute(
    tx: Queryable,
    fact: Extract<BillingFact, { type: 'charge_disputed' }>,
    at: Date,
    eventId: string,
  ) {
    if (!fact.paymentIntentId) return `dispute ${fact.disputeId}: no payment intent`;
    const payment = await records.paymentByIntent(tx, fact.paymentIntentId);
    if (!payment) {
      // Not a one-off payment: a plan's invoice, when a paid period names this payment.
      const period = await records.paidPeriodByPayment(tx, fact.paymentIntentId, fact.chargeId);
      if (period) return this.applyPlanDispute(tx, fact, period, at, eventId);
    }
    const decision = decideDispute(fact, payment, await records.readDispute(tx, fact.disputeId));
    // Opened before its payment is recorded: the payment arrives taken back (as a refund would).
    if (decision.outcome === 'pending') await records.addPendingRefund(tx, fact.paymentIntentId, fact.amount);
    if (decision.outcome !== 'recorded') return undefined;
    if (decision.takenBack) await records.markRefunded(tx, decision.payment.paymentId);
    await records.writeDispute(
      tx,
      { ...decision.dispute, reason: fact.reason, amountCents: fact.amount, currency: fact.currency },
      at,
    );
    await enqueueOutbox(
      tx,
      decision.events.map((e) => paymentMessage(e, at, eventId)),
    );
    return undefined;
  }

  /** A chargeback of a plan's payment: that period's grant is reversed (once), the dispute recorded. */
  private async applyPlanDispute(
    tx: Queryable,
    fact: Extract<BillingFact, { type: 'charge_disputed' }>,
    period: PaidPeriodRecord,
    at: Date,
    eventId: string,
  ) {
    const decision = decidePlanDispute(fact, period, await records.readDispute(tx, fact.disputeId));
    if (decision.outcome !== 'recorded') return undefined;
    if (decision.reversed)
      await records.markPeriodReversed(tx, period.subscriptionId, period.periodStart, fact.disputeId);
    await records.writeDispute(
      tx,
      { ...decision.dispute, reason: fact.reason, amountCents: fact.amount, currency: fact.currency },
      at,
      'invoice',
    );
    await enqueueOutbox(tx, [
      ...decision.subscriptionEvents.map((e) => subscriptionMessage(e, at, eventId)),
      ...decision.paymentEvents.map((e) => paymentMessage(e, at, eventId)),
    ]);
    return undefined;
  }
}

/**
 * The lock an event's effects are serialised on across deliveries and replicas. A payment and its
 * refund meet on the payment intent, whichever arrives first. One lock per event, taken right after
 * its claim and before the customer row it may wait on, so two events never wait on each other.
 */
export function lockOf(fact: BillingFact): string {
  switch (fact.type) {
    case 'checkout_completed':
      return fact.mode === 'subscription'
        ? fact.subscriptionId && `subscription:${fact.subscriptionId}`
        : `payment:${fact.paymentIntentId || fact.sessionId}`;
    case 'invoice_paid':
    case 'invoice_payment_failed':
    case 'subscription_changed':
      return fact.subscriptionId && `subscription:${fact.subscriptionId}`;
    case 'charge_refunded':
    case 'charge_disputed':
      return fact.paymentIntentId && `payment:${fact.paymentIntentId}`;
    case 'ignored':
      return '';
  }
}
