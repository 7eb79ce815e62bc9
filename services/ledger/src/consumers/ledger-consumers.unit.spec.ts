import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { events, eventTypes } from '@flatlay/proto';
import { commandFor } from './ledger-consumers.js';

describe('ledger consumer: what a billing event asks of an account', () => {
  const at = new Date('2026-03-10T12:00:00.000Z');
  const periodStart = new Date('2026-03-01T00:00:00.000Z');
  const reversal = (userId: string) =>
    events.PlanPeriodReversed.encode({
      userId,
      subscriptionId: 'sub_1',
      plan: 'lite',
      billingPeriod: 'monthly',
      periodStart,
      periodEnd: new Date('2026-04-01T00:00:00.000Z'),
      disputeId: 'dp_1',
    }).finish();

  it("maps a disputed plan period to ReversePlanGrant of that period's grant", () => {
    assert.deepEqual(commandFor(eventTypes.PlanPeriodReversed, reversal('user-1'), at), {
      userId: 'user-1',
      command: {
        type: 'ReversePlanGrant',
        data: { subscriptionId: 'sub_1', periodStart, disputeId: 'dp_1', at },
      },
    });
  });

  it('asks nothing of an account when the event names no user', () => {
    assert.equal(commandFor(eventTypes.PlanPeriodReversed, reversal(''), at), undefined);
  });
});
