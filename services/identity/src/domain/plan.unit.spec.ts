import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { applySubscriptionFact, noPlan, type PlanState } from './plan.js';

const t = (iso: string) => new Date(iso);

describe('plan fields from subscription facts', () => {
  const activated = {
    type: 'activated',
    subscriptionId: 'sub_1',
    plan: 'studio',
    periodEnd: t('2026-02-01Z'),
    occurredAt: t('2026-01-01Z'),
  } as const;

  it('activation and renewal set the plan, active status and period end', () => {
    const s = applySubscriptionFact(noPlan, activated)!;
    assert.deepEqual(s, {
      plan: 'studio',
      status: 'active',
      subscriptionId: 'sub_1',
      periodEnd: t('2026-02-01Z'),
      asOf: t('2026-01-01Z'),
    });
    const renewed = applySubscriptionFact(s, {
      ...activated,
      type: 'renewed',
      periodEnd: t('2026-03-01Z'),
      occurredAt: t('2026-02-01Z'),
    })!;
    assert.equal(renewed.periodEnd?.toISOString(), '2026-03-01T00:00:00.000Z');
  });

  it('an event older than the last one applied changes nothing (out-of-order delivery)', () => {
    const s = applySubscriptionFact(noPlan, { ...activated, occurredAt: t('2026-02-01Z') })!;
    assert.equal(applySubscriptionFact(s, activated), undefined);
  });

  it('an immediate cancellation ends the plan; one at period end changes nothing yet', () => {
    const s = applySubscriptionFact(noPlan, activated)!;
    const cancel = {
      type: 'canceled',
      subscriptionId: 'sub_1',
      plan: 'studio',
      effectiveAt: t('2026-01-15Z'),
      occurredAt: t('2026-01-15Z'),
    } as const;
    assert.equal(applySubscriptionFact(s, { ...cancel, immediate: false }), undefined);
    const ended = applySubscriptionFact(s, { ...cancel, immediate: true })!;
    assert.deepEqual([ended.plan, ended.status], ['none', 'canceled']);
  });

  it('the end of an older subscription does not end the current one', () => {
    const s: PlanState = applySubscriptionFact(noPlan, activated)!;
    const old = {
      type: 'canceled',
      subscriptionId: 'sub_0',
      plan: 'lite',
      immediate: true,
      effectiveAt: null,
      occurredAt: t('2026-01-02Z'),
    } as const;
    assert.equal(applySubscriptionFact(s, old), undefined);
  });

  it("billing's status changes set past_due, active again, and canceled", () => {
    const s = applySubscriptionFact(noPlan, activated)!;
    const status = (value: 'active' | 'past_due' | 'canceled', at: string) =>
      ({
        type: 'status',
        subscriptionId: 'sub_1',
        plan: 'studio',
        status: value,
        periodEnd: t('2026-02-01Z'),
        occurredAt: t(at),
      }) as const;
    const pastDue = applySubscriptionFact(s, status('past_due', '2026-01-20Z'))!;
    assert.deepEqual([pastDue.plan, pastDue.status], ['studio', 'past_due']);
    const active = applySubscriptionFact(pastDue, status('active', '2026-01-21Z'))!;
    assert.equal(active.status, 'active');
    const ended = applySubscriptionFact(active, status('canceled', '2026-02-01Z'))!;
    assert.deepEqual([ended.plan, ended.status], ['none', 'canceled']);
    assert.equal(
      applySubscriptionFact(ended, status('active', '2026-01-25Z')),
      undefined,
      'an older event changes nothing',
    );
  });

  it('an unknown plan name is ignored', () => {
    assert.equal(applySubscriptionFact(noPlan, { ...activated, plan: 'platinum' }), undefined);
  });
});
