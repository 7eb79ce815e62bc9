/** Test helpers for TokenAccount specs: build commands, run them, catch refusals. */
import assert from 'node:assert/strict';
import type { TokenAccountCommand } from './token-account-commands.js';
import type { TokenAccountEvent } from './token-account-events.js';
import { TokenAccountRefusal, type TokenAccountRefusalCode } from './token-account-refusal.js';
import { decide, evolve, initialState, type TokenAccountState } from './token-account.js';

export const T0 = new Date('2025-01-01T00:00:00.000Z');
export const DAY = 24 * 60 * 60 * 1000;
export const at = (days: number): Date => new Date(T0.getTime() + days * DAY);

export const cmd = {
  signUp: (when = T0): TokenAccountCommand => ({ type: 'SignUpGrant', data: { at: when } }),
  spend: (imageId: string, when = T0): TokenAccountCommand => ({ type: 'SpendForImage', data: { imageId, at: when } }),
  refund: (imageId: string, when = T0): TokenAccountCommand => ({
    type: 'RefundImageSpend',
    data: { imageId, at: when },
  }),
  unlock: (imageId: string, when = T0): TokenAccountCommand => ({ type: 'UnlockImage', data: { imageId, at: when } }),
  credit: (paymentId: string, tokens: number, packName = 'main_pack', when = T0): TokenAccountCommand => ({
    type: 'CreditPayment',
    data: { paymentId, packId: packName, packName, tokens, at: when },
  }),
  plan: (
    subscriptionId: string,
    plan: string,
    billingPeriod: 'monthly' | 'yearly',
    periodStart: Date,
    when = periodStart,
  ): TokenAccountCommand => ({
    type: 'GrantPlan',
    data: {
      subscriptionId,
      plan: plan as 'lite',
      billingPeriod,
      periodStart,
      periodEnd: new Date(periodStart.getTime() + (billingPeriod === 'monthly' ? 30 : 365) * DAY),
      at: when,
    },
  }),
  reversePlan: (
    subscriptionId: string,
    periodStart: Date,
    when = periodStart,
    disputeId = 'dp-1',
  ): TokenAccountCommand => ({
    type: 'ReversePlanGrant',
    data: { subscriptionId, periodStart, disputeId, at: when },
  }),
  endUnlimited: (subscriptionId: string, when = T0): TokenAccountCommand => ({
    type: 'EndUnlimitedPlan',
    data: { subscriptionId, at: when },
  }),
  adjust: (adjustmentId: string, direction: 'add' | 'deduct', tokens: number, when = T0): TokenAccountCommand => ({
    type: 'AdminAdjust',
    data: { adjustmentId, operatorId: 'operator-1', reason: 'support ticket 42', direction, tokens, at: when },
  }),
  close: (when = T0): TokenAccountCommand => ({ type: 'CloseAccount', data: { at: when } }),
};

/** Decides and applies each command in turn; a refusal stops the run (the test fails). */
export function given(...commands: TokenAccountCommand[]): { state: TokenAccountState; events: TokenAccountEvent[] } {
  let state = initialState();
  const events: TokenAccountEvent[] = [];
  for (const command of commands) {
    for (const event of decide(command, state)) {
      events.push(event);
      state = evolve(state, event);
    }
  }
  return { state, events };
}

/** Asserts that deciding `command` on `state` is refused with `code`, and returns the refusal. */
export function refusal(
  command: TokenAccountCommand,
  state: TokenAccountState,
  code: TokenAccountRefusalCode,
): TokenAccountRefusal {
  let caught: unknown;
  try {
    decide(command, state);
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof TokenAccountRefusal, `expected a TokenAccountRefusal, got ${String(caught)}`);
  assert.equal(caught.code, code);
  assert.equal(caught.balance, state.balance);
  return caught;
}

/**
 * A state with its collections as native Set and Map, for comparing states by content (the
 * persistent collections share logs between versions, so their insides differ between equal
 * states).
 */
export function comparableState(state: TokenAccountState) {
  return {
    ...state,
    appliedKeys: new Set(state.appliedKeys),
    imageSpends: new Map(state.imageSpends),
    unlimitedPeriods: [...state.unlimitedPeriods],
    unlimitedEndedAt: new Map(state.unlimitedEndedAt),
    planGrants: new Map(state.planGrants),
  };
}
