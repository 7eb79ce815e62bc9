import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { factOf } from './billing-facts.js';
import { decidePlanDispute, type PaidPeriodRecord } from './plan-dispute.js';

const period: PaidPeriodRecord = {
  subscriptionId: 'sub_1',
  userId: 'u1',
  plan: 'lite',
  billingPeriod: 'monthly',
  periodStart: new Date('2026-03-01T00:00:00Z'),
  periodEnd: new Date('2026-04-01T00:00:00Z'),
  invoiceId: 'in_1',
  reversedByDispute: '',
};

const disputed = (type: string, status: string, id = 'dp_1') => {
  const fact = factOf({
    id: `evt_${type}`,
    type,
    created: 3,
    data: { object: { id, charge: 'ch_1', payment_intent: 'pi_1', amount: 900, reason: 'fraudulent', status } },
  });
  assert.equal(fact.type, 'charge_disputed');
  return fact as Extract<typeof fact, { type: 'charge_disputed' }>;
};

describe('invoice.paid names what paid it', () => {
  const invoicePaid = (object: Record<string, unknown>) => {
    const fact = factOf({ id: 'evt_1', type: 'invoice.paid', created: 1, data: { object } });
    assert.equal(fact.type, 'invoice_paid');
    return fact as Extract<typeof fact, { type: 'invoice_paid' | 'invoice_payment_failed' }>;
  };

  it('on the invoice (older API versions)', () => {
    const fact = invoicePaid({ id: 'in_1', payment_intent: 'pi_1', charge: { id: 'ch_1' } });
    assert.equal(fact.paymentIntentId, 'pi_1');
    assert.equal(fact.chargeId, 'ch_1');
  });

  it("in the invoice's payments (newer API versions)", () => {
    const fact = invoicePaid({
      id: 'in_1',
      payments: { data: [{ payment: { type: 'payment_intent', payment_intent: 'pi_2' } }] },
    });
    assert.equal(fact.paymentIntentId, 'pi_2');
    assert.equal(fact.chargeId, '');
  });

  it('not at all (a zero-amount invoice)', () => {
    const fact = invoicePaid({ id: 'in_1', payment_intent: null });
    assert.equal(fact.paymentIntentId, '');
  });
});

describe("a dispute of a plan period's payment", () => {
  it('reverses the period once when opened, and records the dispute for the operator', () => {
    const opened = decidePlanDispute(disputed('charge.dispute.created', 'needs_response'), period, undefined);
    assert.ok(opened.outcome === 'recorded');
    assert.equal(opened.reversed, true);
    assert.deepEqual(opened.subscriptionEvents, [
      {
        type: 'PlanPeriodReversed',
        data: {
          subscriptionId: 'sub_1',
          userId: 'u1',
          plan: 'lite',
          billingPeriod: 'monthly',
          periodStart: period.periodStart,
          periodEnd: period.periodEnd,
          disputeId: 'dp_1',
        },
      },
    ]);
    assert.deepEqual(
      opened.paymentEvents.map((e) => [e.type, e.type === 'PaymentDisputed' && e.data.kind, e.data.paymentId]),
      [['PaymentDisputed', 'subscription', 'in_1']],
    );
    assert.deepEqual(opened.dispute, { disputeId: 'dp_1', paymentId: 'in_1', status: 'needs_response' });
  });

  it('reverses nothing more once the period was reversed: funds withdrawn, a redelivery, another dispute', () => {
    const reversed = { ...period, reversedByDispute: 'dp_1' };
    const known = { disputeId: 'dp_1', paymentId: 'in_1', status: 'needs_response' };
    const again = decidePlanDispute(disputed('charge.dispute.created', 'needs_response'), reversed, known);
    assert.deepEqual(again, { outcome: 'none' });
    const withdrawn = decidePlanDispute(disputed('charge.dispute.funds_withdrawn', 'under_review'), reversed, known);
    assert.ok(withdrawn.outcome === 'recorded');
    assert.equal(withdrawn.reversed, false);
    assert.deepEqual(withdrawn.subscriptionEvents, []);
    assert.equal(withdrawn.dispute.status, 'under_review');
    const second = decidePlanDispute(disputed('charge.dispute.created', 'needs_response', 'dp_2'), reversed, undefined);
    assert.ok(second.outcome === 'recorded');
    assert.equal(second.reversed, false);
    assert.deepEqual(second.subscriptionEvents, []);
  });

  it('a closed dispute reverses nothing by itself', () => {
    const closed = decidePlanDispute(disputed('charge.dispute.closed', 'won'), period, undefined);
    assert.ok(closed.outcome === 'recorded');
    assert.equal(closed.reversed, false);
  });
});
