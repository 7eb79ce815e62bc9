import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { complimentaryId, grantComplimentary, revokeComplimentary } from './complimentary-plan.js';
import type { SubscriptionRecord } from './subscription.js';

const now = new Date('2026-01-01T00:00:00Z');
const input = { userId: 'u1', plan: 'unlimited', email: 'ada@example.com', now };
const paid: SubscriptionRecord = {
  subscriptionId: 'sub_1',
  userId: 'u1',
  customerId: 'cus_1',
  plan: 'studio',
  billingPeriod: 'monthly',
  status: 'active',
  cancelAtPeriodEnd: false,
  currentPeriodStart: now,
  currentPeriodEnd: now,
  asOf: now,
};

describe('the complimentary unlimited plan', () => {
  it('is granted as an active subscription of its own, published as SubscriptionActivated', () => {
    const d = grantComplimentary(input, undefined, undefined);
    assert.equal(d.record.subscriptionId, complimentaryId('unlimited', 'u1'));
    assert.equal(d.record.status, 'active');
    assert.ok(d.record.currentPeriodEnd!.getTime() > now.getTime() + 50 * 365 * 86_400_000);
    assert.deepEqual(
      d.events.map((e) => [e.type, e.data.plan]),
      [['SubscriptionActivated', 'unlimited']],
    );
  });

  it('refuses another plan, a second grant, and a paying subscriber (a cancelled one does not count)', () => {
    assert.throws(() => grantComplimentary({ ...input, plan: 'studio' }, undefined, undefined), /Only the unlimited/);
    const granted = grantComplimentary(input, undefined, undefined).record;
    assert.throws(() => grantComplimentary(input, granted, granted), { code: 'CONFLICT' });
    assert.throws(() => grantComplimentary(input, paid, undefined), /pays for the studio plan/);
    assert.equal(grantComplimentary(input, { ...paid, status: 'canceled' }, undefined).record.status, 'active');
  });

  it('is revoked at once (SubscriptionCanceled, immediate), and a revoke of nothing is NOT_FOUND', () => {
    const granted = grantComplimentary(input, undefined, undefined).record;
    const d = revokeComplimentary(input, granted);
    assert.equal(d.record.status, 'canceled');
    assert.deepEqual(d.events, [
      {
        type: 'SubscriptionCanceled',
        data: {
          subscriptionId: granted.subscriptionId,
          userId: 'u1',
          plan: 'unlimited',
          immediate: true,
          effectiveAt: now,
        },
      },
    ]);
    assert.throws(() => revokeComplimentary(input, undefined), { code: 'NOT_FOUND' });
    assert.throws(() => revokeComplimentary(input, d.record), { code: 'NOT_FOUND' });
  });
});
