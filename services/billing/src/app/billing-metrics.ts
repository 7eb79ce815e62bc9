// Webhooks and payments by outcome: the operator's view of money coming in (and going back),
// and of a provider whose events stop verifying (a rotated secret, someone knocking).
import { instrument } from '@flatlay/platform';
import type { BillingFact } from '../domain/billing-facts.js';

/** What became of one webhook call. */
export type WebhookOutcome = 'applied' | 'refused' | 'duplicate' | 'bad_signature' | 'rejected' | 'error';

const webhooks = () =>
  instrument('flatlay.billing.webhooks', (meter) =>
    meter.createCounter('flatlay.billing.webhooks', {
      description:
        'Payment provider webhook calls by fact and outcome: applied, refused (a business rule), duplicate, bad_signature, rejected (not configured, no signature, not an event), error',
      unit: '{event}',
    }),
  );

const payments = () =>
  instrument('flatlay.billing.payments', (meter) =>
    meter.createCounter('flatlay.billing.payments', {
      description:
        'Money events the provider reported, by kind (checkout, invoice, refund, dispute) and outcome (succeeded, failed, refused)',
      unit: '{payment}',
    }),
  );

/**
 * The payment a fact reports, as labels: its kind, and whether it went through (`succeeded`),
 * the provider says it did not (`failed`), or billing refused what it says (`refused`). Facts
 * that move no money (a subscription's change, events billing ignores) are none.
 */
export function paymentLabels(
  fact: BillingFact,
  refused: boolean,
): { kind: 'checkout' | 'invoice' | 'refund' | 'dispute'; outcome: 'succeeded' | 'failed' | 'refused' } | undefined {
  const outcome = refused ? 'refused' : 'succeeded';
  switch (fact.type) {
    case 'checkout_completed':
      return { kind: 'checkout', outcome: refused ? 'refused' : fact.paid ? 'succeeded' : 'failed' };
    case 'invoice_paid':
      return { kind: 'invoice', outcome };
    case 'invoice_payment_failed':
      return { kind: 'invoice', outcome: refused ? 'refused' : 'failed' };
    case 'charge_refunded':
      return { kind: 'refund', outcome };
    case 'charge_disputed':
      return { kind: 'dispute', outcome };
    default:
      return undefined;
  }
}

/** Counts a webhook call (`fact`: its fact's type, `unknown` before it was read) and, when it moved money, its payment. */
export function countWebhook(fact: BillingFact | undefined, outcome: WebhookOutcome): void {
  webhooks().add(1, { 'flatlay.billing.fact': fact?.type ?? 'unknown', 'flatlay.outcome': outcome });
  if (!fact || (outcome !== 'applied' && outcome !== 'refused')) return;
  const payment = paymentLabels(fact, outcome === 'refused');
  if (payment) payments().add(1, { 'flatlay.payment.kind': payment.kind, 'flatlay.outcome': payment.outcome });
}
