import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import type { BillingFact } from './billing-facts.js';
import {
  cancelAtPeriodEnd,
  decideSubscription,
  type SubscriptionInput,
  type SubscriptionRecord,
} from './subscription.js';

const t = (iso: string) => new Date(iso);
const plan = { plan: 'lite', billingPeriod: 'monthly' as const };
const meta = { user_id: 'u1' };

const paid = (start: string, end: string, reason = 'subscription_cycle'): BillingFact => ({
  type: 'invoice_paid',
  invoiceId: 'in_1',
  subscriptionId: 'sub_1',
  customerId: 'cus_1',
  billingReason: reason,
  priceId: 'price_lite_monthly',
  periodStart: t(start),
  periodEnd: t(end),
  paymentIntentId: 'pi_1',
  chargeId: 'ch_1',
  amountPaid: 900,
  currency: 'usd',
  metadata: meta,
});

const changed = (
  status: 'active' | 'past_due' | 'canceled',
  cancelAtPeriodEnd: boolean,
  deleted = false,
): BillingFact => ({
  type: 'subscription_changed',
  deleted,
  subscriptionId: 'sub_1',
  customerId: 'cus_1',
  status,
  cancelAtPeriodEnd,
  currentPeriodStart: t('2026-01-01Z'),
  currentPeriodEnd: t('2026-02-01Z'),
  endedAt: null,
  priceId: 'price_lite_monthly',
  metadata: meta,
});

function run(facts: Array<[BillingFact, string]>) {
  let record: SubscriptionRecord | undefined;
  const paidStarts = new Set<number>();
  const events: string[] = [];
  for (const [fact, at] of facts) {
    const input: SubscriptionInput = {
      record,
      paidPeriodStarts: paidStarts,
      fact: fact as SubscriptionInput['fact'],
      plan,
      at: t(at),
    };
    const d = decideSubscription(input);
    assert.ok(!('refused' in d));
    record = d.record;
    if (d.paidPeriod) paidStarts.add(d.paidPeriod.start.getTime());
    events.push(...d.events.map((e) => e.type));
  }
  return { record: record!, events };
}

describe('subscription decisions', () => {
  it('the first paid period activates, each later one renews, each once', () => {
    const first = paid('2026-01-01Z', '2026-02-01Z', 'subscription_create');
    const second = paid('2026-02-01Z', '2026-03-01Z');
    const { record, events } = run([
      [first, '2026-01-01Z'],
      [first, '2026-01-01Z'],
      [second, '2026-02-01Z'],
      [second, '2026-02-01Z'],
    ]);
    assert.deepEqual(events, ['SubscriptionActivated', 'SubscriptionRenewed']);
    assert.equal(record.currentPeriodEnd?.toISOString(), '2026-03-01T00:00:00.000Z');
  });

  it('delivery order does not change the final state', () => {
    const facts: Array<[BillingFact, string]> = [
      [paid('2026-01-01Z', '2026-02-01Z', 'subscription_create'), '2026-01-01T00:00:00Z'],
      [changed('active', true), '2026-01-10Z'],
      [changed('canceled', false, true), '2026-02-01Z'],
    ];
    const inOrder = run(facts).record;
    const reversed = run([...facts].reverse()).record;
    for (const r of [inOrder, reversed]) assert.deepEqual([r.status, r.cancelAtPeriodEnd], ['canceled', false]);
  });

  it('a failed invoice makes it past_due; a later payment makes it active again', () => {
    const failed: BillingFact = {
      ...(paid('2026-02-01Z', '2026-03-01Z') as object),
      type: 'invoice_payment_failed',
    } as BillingFact;
    const { record, events } = run([
      [paid('2026-01-01Z', '2026-02-01Z', 'subscription_create'), '2026-01-01Z'],
      [failed, '2026-02-01Z'],
    ]);
    assert.equal(record.status, 'past_due');
    assert.deepEqual(events, ['SubscriptionActivated', 'SubscriptionStatusChanged']);
    const later = run([
      [paid('2026-01-01Z', '2026-02-01Z', 'subscription_create'), '2026-01-01Z'],
      [failed, '2026-02-01Z'],
      [paid('2026-02-01Z', '2026-03-01Z'), '2026-02-03Z'],
    ]).record;
    assert.equal(later.status, 'active');
  });

  it('cancelling at the period end keeps the plan active; the deletion ends it', () => {
    const cancelling = run([
      [paid('2026-01-01Z', '2026-02-01Z', 'subscription_create'), '2026-01-01Z'],
      [changed('active', true), '2026-01-10Z'],
    ]);
    assert.deepEqual([cancelling.record.status, cancelling.record.cancelAtPeriodEnd], ['active', true]);
    const ended = run([
      [paid('2026-01-01Z', '2026-02-01Z', 'subscription_create'), '2026-01-01Z'],
      [changed('active', true), '2026-01-10Z'],
      [changed('canceled', false, true), '2026-02-01Z'],
    ]);
    assert.deepEqual(ended.events.slice(-2), ['SubscriptionStatusChanged', 'SubscriptionCanceled']);
    assert.equal(ended.record.status, 'canceled');
  });

  it("the user's own cancel publishes once; the provider's confirmation then changes nothing", () => {
    const active = run([[paid('2026-01-01Z', '2026-02-01Z', 'subscription_create'), '2026-01-01Z']]).record;
    const cancelled = cancelAtPeriodEnd(active);
    assert.deepEqual(
      cancelled.events.map((e) => e.type),
      ['SubscriptionStatusChanged'],
    );
    assert.deepEqual(cancelAtPeriodEnd(cancelled.record).events, []);
  });

  it('refuses a fact that names no user or no plan', () => {
    const d = decideSubscription({
      record: undefined,
      paidPeriodStarts: new Set(),
      fact: { ...(paid('2026-01-01Z', '2026-02-01Z') as object), metadata: {} } as SubscriptionInput['fact'],
      plan,
      at: t('2026-01-01Z'),
    });
    assert.ok('refused' in d);
  });
});
