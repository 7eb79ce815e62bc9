import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import type { BillingFact } from '../domain/billing-facts.js';
import { paymentLabels } from './billing-metrics.js';

const checkout = (paid: boolean) =>
  ({
    type: 'checkout_completed',
    sessionId: 'cs_1',
    mode: 'payment',
    paid,
    customerId: '',
    subscriptionId: '',
    paymentIntentId: 'pi_1',
    amountTotal: 500,
    currency: 'usd',
    customerEmail: '',
    metadata: {},
  }) satisfies BillingFact;

describe('payment labels of a webhook fact', () => {
  it('names a checkout by whether it was paid, and a refused one as refused', () => {
    assert.deepEqual(paymentLabels(checkout(true), false), { kind: 'checkout', outcome: 'succeeded' });
    assert.deepEqual(paymentLabels(checkout(false), false), { kind: 'checkout', outcome: 'failed' });
    assert.deepEqual(paymentLabels(checkout(true), true), { kind: 'checkout', outcome: 'refused' });
  });

  it('counts a failed invoice as failed, and facts that move no money as no payment', () => {
    const invoice = { type: 'invoice_payment_failed' } as BillingFact;
    assert.deepEqual(paymentLabels(invoice, false), { kind: 'invoice', outcome: 'failed' });
    assert.deepEqual(paymentLabels({ type: 'invoice_paid' } as BillingFact, false), {
      kind: 'invoice',
      outcome: 'succeeded',
    });
    assert.equal(paymentLabels({ type: 'ignored', eventType: 'customer.created' }, false), undefined);
    assert.equal(paymentLabels({ type: 'subscription_changed' } as BillingFact, false), undefined);
  });
});
