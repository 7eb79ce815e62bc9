import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { factOf } from './billing-facts.js';
import { decideDispute, decidePayment, decideRefund } from './payment.js';

const completed = (metadata: Record<string, string>, paid = true) => {
  const fact = factOf({
    id: 'evt_1',
    type: 'checkout.session.completed',
    created: 1,
    data: {
      object: {
        id: 'cs_1',
        mode: 'payment',
        payment_status: paid ? 'paid' : 'unpaid',
        customer: 'cus_1',
        payment_intent: 'pi_1',
        amount_total: 2400,
        currency: 'usd',
        metadata,
      },
    },
  });
  assert.equal(fact.type, 'checkout_completed');
  return fact as Extract<typeof fact, { type: 'checkout_completed' }>;
};
const pack = { id: 'main_pack', name: 'Main', tokens: 1500 };
const refund = (full: boolean) => {
  const fact = factOf({
    id: 'evt_2',
    type: 'charge.refunded',
    created: 2,
    data: {
      object: { id: 'ch_1', payment_intent: 'pi_1', amount: 2400, amount_refunded: full ? 2400 : 500, refunded: full },
    },
  });
  return fact as Extract<typeof fact, { type: 'charge_refunded' }>;
};

describe('payment decisions', () => {
  it('a paid pack publishes PaymentSucceeded with the tokens the buyer saw', () => {
    const d = decidePayment(
      completed({ kind: 'token_pack', user_id: 'u1', pack_id: 'main_pack', tokens: '1500' }),
      pack,
      false,
    );
    assert.ok(!('refused' in d));
    assert.deepEqual(
      d.events.map((e) => [e.type, e.key]),
      [['PaymentSucceeded', 'u1']],
    );
    assert.equal(d.payment.tokens, 1500);
    assert.equal(d.payment.paymentId, 'cs_1');
  });

  it('unlocks publish the fact the image service acts on, keyed by user or guest enhancement', () => {
    const image = decidePayment(completed({ kind: 'image_unlock', user_id: 'u1', image_id: 'img1' }), undefined, false);
    assert.ok(!('refused' in image));
    assert.deepEqual(
      image.events.map((e) => e.type),
      ['PaymentSucceeded', 'ImageUnlockPaid'],
    );
    const guest = decidePayment(completed({ kind: 'anonymous_enhancement', enhancement_id: 'enh1' }), undefined, false);
    assert.ok(!('refused' in guest));
    assert.deepEqual(
      guest.events.map((e) => [e.type, e.key]),
      [
        ['PaymentSucceeded', 'enh1'],
        ['AnonymousEnhancementPaid', 'enh1'],
      ],
    );
  });

  it('refuses unpaid sessions and sessions that sell nothing known', () => {
    assert.ok(
      'refused' in decidePayment(completed({ kind: 'token_pack', user_id: 'u1', pack_id: 'x' }, false), pack, false),
    );
    assert.ok('refused' in decidePayment(completed({ kind: 'gift' }), undefined, false));
    assert.ok('refused' in decidePayment(completed({ kind: 'image_unlock', user_id: 'u1' }), undefined, false));
  });

  it('a full refund is published once; a partial refund takes nothing; an early refund waits', () => {
    const d = decidePayment(
      completed({ kind: 'token_pack', user_id: 'u1', pack_id: 'main_pack', tokens: '1500' }),
      pack,
      false,
    );
    assert.ok(!('refused' in d));
    const first = decideRefund(refund(true), d.payment);
    assert.equal(first.outcome, 'refunded');
    assert.ok(first.outcome === 'refunded');
    assert.deepEqual(
      first.events.map((e) => e.type),
      ['PaymentRefunded'],
    );
    assert.equal(decideRefund(refund(true), first.payment).outcome, 'none');
    assert.equal(decideRefund(refund(false), d.payment).outcome, 'none');
    assert.equal(decideRefund(refund(true), undefined).outcome, 'pending');
    const late = decidePayment(
      completed({ kind: 'token_pack', user_id: 'u1', pack_id: 'main_pack', tokens: '1500' }),
      pack,
      true,
    );
    assert.ok(!('refused' in late));
    assert.deepEqual(
      late.events.map((e) => e.type),
      ['PaymentSucceeded', 'PaymentRefunded'],
    );
  });

  it('a dispute takes a pack back once, records each status change, and takes nothing after a refund', () => {
    const disputed = (type: string, status: string) => {
      const fact = factOf({
        id: `evt_${type}`,
        type,
        created: 3,
        data: {
          object: { id: 'dp_1', charge: 'ch_1', payment_intent: 'pi_1', amount: 2400, reason: 'fraudulent', status },
        },
      });
      assert.equal(fact.type, 'charge_disputed');
      return fact as Extract<typeof fact, { type: 'charge_disputed' }>;
    };
    const d = decidePayment(
      completed({ kind: 'token_pack', user_id: 'u1', pack_id: 'main_pack', tokens: '1500' }),
      pack,
      false,
    );
    assert.ok(!('refused' in d));
    const opened = decideDispute(disputed('charge.dispute.created', 'needs_response'), d.payment, undefined);
    assert.ok(opened.outcome === 'recorded');
    assert.deepEqual(
      opened.events.map((e) => e.type),
      ['PaymentRefunded', 'PaymentDisputed'],
    );
    const withdrawn = decideDispute(
      disputed('charge.dispute.funds_withdrawn', 'needs_response'),
      opened.payment,
      opened.dispute,
    );
    assert.equal(withdrawn.outcome, 'none');
    const lost = decideDispute(disputed('charge.dispute.closed', 'lost'), opened.payment, opened.dispute);
    assert.ok(lost.outcome === 'recorded');
    assert.deepEqual(
      lost.events.map((e) => e.type),
      ['PaymentDisputed'],
    );
    const refunded = decideRefund(refund(true), d.payment);
    assert.ok(refunded.outcome === 'refunded');
    const afterRefund = decideDispute(
      disputed('charge.dispute.created', 'needs_response'),
      refunded.payment,
      undefined,
    );
    assert.ok(afterRefund.outcome === 'recorded');
    assert.deepEqual(
      afterRefund.events.map((e) => [e.type, e.type === 'PaymentDisputed' ? e.data.tokensTakenBack : -1]),
      [['PaymentDisputed', 0]],
    );
    assert.equal(
      decideDispute(disputed('charge.dispute.created', 'needs_response'), undefined, undefined).outcome,
      'pending',
    );
  });

  it("reads the payer's address as Stripe gives it (customer_details, else customer_email), or none", () => {
    const of = (object: Record<string, unknown>) => {
      const fact = factOf({ id: 'evt_9', type: 'checkout.session.completed', created: 1, data: { object } });
      return fact.type === 'checkout_completed' ? fact.customerEmail : undefined;
    };
    assert.equal(of({ id: 'cs_1', customer_details: { email: 'guest@example.com' } }), 'guest@example.com');
    assert.equal(of({ id: 'cs_1', customer_details: null, customer_email: 'set@example.com' }), 'set@example.com');
    assert.equal(of({ id: 'cs_1', customer_details: null }), '');
  });
});
