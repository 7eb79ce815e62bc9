import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { T0, at, cmd, comparableState, given, refusal } from './token-account.fixtures.js';
import { decide, evolve, initialState, replay, tokenAccount } from './token-account.js';
import { balanceDelta, type TokenAccountEvent } from './token-account-events.js';
import type { TokenAccountCommand } from './token-account-commands.js';

const only = (events: TokenAccountEvent[]): TokenAccountEvent => {
  assert.equal(events.length, 1);
  return events[0]!;
};

describe('TokenAccount: initial state', () => {
  it('starts open with a balance of 0 and nothing applied', () => {
    const state = initialState();
    assert.equal(state.balance, 0);
    assert.equal(state.status, 'open');
    assert.equal(state.appliedKeys.size, 0);
    assert.equal(tokenAccount.initialState().balance, 0);
  });
});

describe('SignUpGrant', () => {
  it('grants 200 tokens as the sign-up bonus', () => {
    const event = only(decide(cmd.signUp(), initialState()));
    assert.deepEqual(event, {
      type: 'TokensGranted',
      data: {
        businessKey: 'sign-up',
        occurredAt: '2025-01-01T00:00:00.000Z',
        source: 'sign-up',
        amount: 200,
        description: 'Sign-up bonus',
      },
    });
    assert.equal(evolve(initialState(), event).balance, 200);
  });

  it('grants once per user: a second sign-up grant yields no events', () => {
    const { state } = given(cmd.signUp());
    assert.deepEqual(decide(cmd.signUp(at(3)), state), []);
    assert.equal(state.balance, 200);
  });
});

describe('SpendForImage', () => {
  it('charges 100 tokens for an image enhancement', () => {
    const { state } = given(cmd.signUp());
    const event = only(decide(cmd.spend('img-1'), state));
    assert.equal(event.type, 'TokensSpent');
    assert.deepEqual(event.data, {
      businessKey: 'image-enhancement:img-1',
      occurredAt: T0.toISOString(),
      imageId: 'img-1',
      purpose: 'enhancement',
      unlimitedPlan: false,
      amount: 100,
      description: 'Image enhancement',
    });
    assert.equal(evolve(state, event).balance, 100);
  });

  it('charges once per image id', () => {
    const { state } = given(cmd.signUp(), cmd.spend('img-1'));
    assert.deepEqual(decide(cmd.spend('img-1', at(1)), state), []);
    assert.equal(state.balance, 100);
  });

  it('is refused with INSUFFICIENT_TOKENS, telling the balance, when it would go below 0', () => {
    const empty = refusal(cmd.spend('img-1'), initialState(), 'INSUFFICIENT_TOKENS');
    assert.equal(empty.balance, 0);
    assert.equal(empty.required, 100);

    const { state } = given(cmd.signUp(), cmd.adjust('adj-1', 'deduct', 150));
    assert.equal(state.balance, 50);
    const partial = refusal(cmd.spend('img-1'), state, 'INSUFFICIENT_TOKENS');
    assert.equal(partial.balance, 50);
  });

  it('spends down to exactly 0 and no further', () => {
    const { state } = given(cmd.signUp(), cmd.spend('img-1'), cmd.spend('img-2'));
    assert.equal(state.balance, 0);
    refusal(cmd.spend('img-3'), state, 'INSUFFICIENT_TOKENS');
  });

  it('does not change the state it is given', () => {
    const { state } = given(cmd.signUp());
    const before = comparableState(state);
    decide(cmd.spend('img-1'), state);
    assert.deepEqual(comparableState(state), before);
  });
});

describe('RefundImageSpend', () => {
  it('gives back what the enhancement charged', () => {
    const { state } = given(cmd.signUp(), cmd.spend('img-1'));
    const event = only(decide(cmd.refund('img-1', at(1)), state));
    assert.equal(event.type, 'TokensRefunded');
    assert.equal(event.data.amount, 100);
    assert.equal(event.data.description, 'Refund: enhancement failed');
    assert.equal(event.data.businessKey, 'enhancement-refund:img-1');
    assert.equal(evolve(state, event).balance, 200);
  });

  it('refunds once per image id', () => {
    const { state } = given(cmd.signUp(), cmd.spend('img-1'), cmd.refund('img-1'));
    assert.deepEqual(decide(cmd.refund('img-1', at(2)), state), []);
    assert.equal(state.balance, 200);
  });

  it('is refused with SPEND_NOT_FOUND when no enhancement of that image was charged', () => {
    const { state } = given(cmd.signUp(), cmd.spend('img-1'), cmd.unlock('img-2'));
    refusal(cmd.refund('img-9'), state, 'SPEND_NOT_FOUND');
    // An unlock is not an enhancement spend: it has no refund.
    refusal(cmd.refund('img-2'), state, 'SPEND_NOT_FOUND');
  });

  it('refunds 0 for an enhancement that was free on an unlimited plan', () => {
    const { state } = given(cmd.plan('sub-u', 'unlimited', 'monthly', T0), cmd.spend('img-1', at(1)));
    const event = only(decide(cmd.refund('img-1', at(2)), state));
    assert.equal(event.data.amount, 0);
    assert.equal(evolve(state, event).balance, 0);
  });
});

describe('CreditPayment', () => {
  it('credits a token pack with the pack name in the description', () => {
    const event = only(decide(cmd.credit('pay-1', 500, 'main_pack'), initialState()));
    assert.equal(event.type, 'TokensCredited');
    assert.deepEqual(event.data, {
      businessKey: 'payment:pay-1',
      occurredAt: T0.toISOString(),
      paymentId: 'pay-1',
      packId: 'main_pack',
      packName: 'main_pack',
      amount: 500,
      description: 'Main pack purchase',
    });
  });

  it('writes the pack name as a user reads it', () => {
    for (const [packName, description] of [
      ['Main', 'Main pack purchase'],
      ['Main Pack', 'Main pack purchase'],
      ['starter-pack', 'Starter pack purchase'],
      ['Mega bundle', 'Mega bundle pack purchase'],
    ] as const) {
      assert.equal(only(decide(cmd.credit('p', 10, packName), initialState())).data.description, description);
    }
  });

  it('credits once per payment id, whatever the order and number of deliveries', () => {
    const { state, events } = given(
      cmd.credit('pay-2', 300),
      cmd.credit('pay-1', 500),
      cmd.credit('pay-2', 300),
      cmd.credit('pay-1', 500),
      cmd.credit('pay-1', 500),
    );
    assert.equal(events.length, 2);
    assert.equal(state.balance, 800);
  });

  it('is refused with INVALID_ARGUMENT for a non-positive or fractional amount', () => {
    refusal(cmd.credit('pay-1', 0), initialState(), 'INVALID_ARGUMENT');
    refusal(cmd.credit('pay-1', -5), initialState(), 'INVALID_ARGUMENT');
    refusal(cmd.credit('pay-1', 2.5), initialState(), 'INVALID_ARGUMENT');
    refusal(cmd.credit('', 10), initialState(), 'INVALID_ARGUMENT');
  });
});

describe('ReversePayment', () => {
  const reverse = (paymentId: string, tokens: number): TokenAccountCommand => ({
    type: 'ReversePayment',
    data: { paymentId, packName: 'main_pack', tokens, at: T0 },
  });

  it('takes back a refunded pack in full while its tokens are unspent', () => {
    const { state, events } = given(cmd.credit('pay-1', 1500, 'main_pack'), reverse('pay-1', 1500));
    assert.equal(state.balance, 0);
    const last = events.at(-1)!;
    assert.equal(last.type, 'TokensReversed');
    assert.equal(last.data.description, 'Main pack refunded');
    assert.equal(balanceDelta(last), -1500);
  });

  it('takes only what is left: spent tokens stay spent, the balance stops at 0', () => {
    const { state, events } = given(
      cmd.credit('pay-1', 500, 'main_pack'),
      cmd.spend('img-1'),
      cmd.spend('img-2'),
      reverse('pay-1', 500),
    );
    assert.equal(state.balance, 0);
    assert.equal(events.at(-1)!.data.amount, 300);
  });

  it('happens once per payment, and never before the payment was credited', () => {
    const { state, events } = given(cmd.credit('pay-1', 500), reverse('pay-1', 500), reverse('pay-1', 500));
    assert.equal(events.length, 2);
    assert.equal(state.balance, 0);
    refusal(reverse('pay-9', 500), initialState(), 'PAYMENT_NOT_FOUND');
  });
});

describe('GrantPlan', () => {
  const cases = [
    ['lite', 'monthly', 1700, 'Lite plan: monthly tokens'],
    ['studio', 'monthly', 4000, 'Studio plan: monthly tokens'],
    ['lite', 'yearly', 20400, 'Lite plan: yearly tokens'],
    ['studio', 'yearly', 48000, 'Studio plan: yearly tokens'],
  ] as const;
  for (const [plan, period, tokens, description] of cases) {
    it(`grants ${tokens} tokens for a ${period} ${plan} period, all at once`, () => {
      const event = only(decide(cmd.plan('sub-1', plan, period, T0), initialState()));
      assert.equal(event.type, 'TokensGranted');
      assert.equal(event.data.amount, tokens);
      assert.equal(event.data.description, description);
      assert.equal(event.data.businessKey, 'plan-period:sub-1@2025-01-01T00:00:00.000Z');
      assert.equal(evolve(initialState(), event).balance, tokens);
    });
  }

  it('grants once per subscription period, and again for the next period', () => {
    const { state, events } = given(
      cmd.plan('sub-1', 'studio', 'monthly', T0),
      cmd.plan('sub-1', 'studio', 'monthly', T0, at(1)),
      cmd.plan('sub-1', 'studio', 'monthly', at(30)),
      cmd.plan('sub-2', 'studio', 'monthly', T0),
    );
    assert.equal(events.length, 3);
    assert.equal(state.balance, 12000);
  });

  it('is refused with UNKNOWN_PLAN for a plan without a token rule', () => {
    const refused = refusal(cmd.plan('sub-1', 'bulk', 'monthly', T0), initialState(), 'UNKNOWN_PLAN');
    assert.equal(refused.field, 'plan');
  });

  it('is refused with INVALID_ARGUMENT when the period ends before it starts', () => {
    const command: TokenAccountCommand = {
      type: 'GrantPlan',
      data: { subscriptionId: 's', plan: 'lite', billingPeriod: 'monthly', periodStart: at(1), periodEnd: T0, at: T0 },
    };
    refusal(command, initialState(), 'INVALID_ARGUMENT');
  });
});

describe('Unlimited plan', () => {
  const unlimited = cmd.plan('sub-u', 'unlimited', 'monthly', T0);

  it('starts a period of free usage and grants no tokens', () => {
    const event = only(decide(unlimited, initialState()));
    assert.equal(event.type, 'UnlimitedPlanStarted');
    assert.equal(event.data.amount, 0);
    assert.equal(event.data.description, 'Unlimited plan: monthly access');
    assert.equal(evolve(initialState(), event).balance, 0);
  });

  it('records a spend and an unlock within the period as usage charged 0', () => {
    const { state } = given(unlimited);
    const spent = only(decide(cmd.spend('img-1', at(5)), state));
    assert.equal(spent.type, 'TokensSpent');
    assert.equal(spent.data.amount, 0);
    assert.equal(spent.type === 'TokensSpent' && spent.data.unlimitedPlan, true);
    assert.equal(spent.data.description, 'Image enhancement (Unlimited plan)');
    const unlocked = only(decide(cmd.unlock('img-2', at(5)), state));
    assert.equal(unlocked.data.amount, 0);
    assert.equal(unlocked.data.description, 'Image unlock (Unlimited plan)');
  });

  it('charges again once the period is over', () => {
    const { state } = given(unlimited, cmd.signUp());
    const event = only(decide(cmd.spend('img-1', at(30)), state));
    assert.equal(event.data.amount, 100);
    refusal(cmd.spend('img-1', at(31)), given(unlimited).state, 'INSUFFICIENT_TOKENS');
  });

  it('charges again after the plan is ended early, even if the period event comes late', () => {
    const { state, events } = given(cmd.endUnlimited('sub-u', at(10)), unlimited, cmd.signUp());
    assert.equal(events[0]!.type, 'UnlimitedPlanEnded');
    assert.equal(only(decide(cmd.spend('img-1', at(5)), state)).data.amount, 0);
    assert.equal(only(decide(cmd.spend('img-1', at(10)), state)).data.amount, 100);
    assert.deepEqual(decide(cmd.endUnlimited('sub-u', at(11)), state), []);
  });
});

describe("ReversePlanGrant (a plan period's payment disputed)", () => {
  it("takes back a token plan period's tokens while they are unspent", () => {
    const { state, events } = given(
      cmd.signUp(),
      cmd.plan('sub-1', 'lite', 'monthly', T0),
      cmd.reversePlan('sub-1', T0, at(3), 'dp-7'),
    );
    assert.equal(state.balance, 200);
    const last = events.at(-1)!;
    assert.equal(last.type, 'PlanTokensReversed');
    assert.equal(last.data.amount, 1700);
    assert.equal(last.data.description, 'Lite plan (monthly) reversed: payment disputed');
    assert.equal(last.data.businessKey, 'plan-period-reversal:sub-1@2025-01-01T00:00:00.000Z');
    assert.equal(last.type === 'PlanTokensReversed' && last.data.disputeId, 'dp-7');
    assert.equal(balanceDelta(last), -1700);
  });

  it('takes only what is left: spent tokens stay spent, the balance stops at 0', () => {
    const { state, events } = given(
      cmd.plan('sub-1', 'studio', 'monthly', T0),
      ...Array.from({ length: 25 }, (_, i) => cmd.spend(`img-${i}`, at(1))),
      cmd.reversePlan('sub-1', T0, at(2)),
    );
    assert.equal(state.balance, 0);
    const last = events.at(-1)!;
    assert.equal(last.data.amount, 4000 - 2500);
    assert.equal(last.type === 'PlanTokensReversed' && last.data.requested, 4000);
    assert.equal(last.data.description, 'Studio plan (monthly) reversed: payment disputed');
  });

  it('reverses only the disputed period, once, and never before that period was granted', () => {
    const { state, events } = given(
      cmd.plan('sub-1', 'lite', 'monthly', T0),
      cmd.plan('sub-1', 'lite', 'monthly', at(30)),
      cmd.reversePlan('sub-1', at(30), at(31)),
      cmd.reversePlan('sub-1', at(30), at(32), 'dp-other'),
    );
    assert.equal(events.length, 3);
    assert.equal(state.balance, 1700);
    refusal(cmd.reversePlan('sub-1', at(60)), state, 'PLAN_GRANT_NOT_FOUND');
    refusal(cmd.reversePlan('sub-2', T0), state, 'PLAN_GRANT_NOT_FOUND');
  });

  it("ends an unlimited plan's window now, and a later cancellation does not open it again", () => {
    const unlimited = cmd.plan('sub-u', 'unlimited', 'monthly', T0);
    const { state, events } = given(
      unlimited,
      cmd.signUp(),
      cmd.reversePlan('sub-u', T0, at(10)),
      cmd.endUnlimited('sub-u', at(20)),
    );
    const reversed = events[2]!;
    assert.equal(reversed.type, 'UnlimitedPlanEnded');
    assert.equal(reversed.data.description, 'Unlimited plan (monthly) reversed: payment disputed');
    assert.equal(reversed.data.amount, 0);
    assert.equal(only(decide(cmd.spend('img-1', at(5)), state)).data.amount, 0);
    assert.equal(only(decide(cmd.spend('img-1', at(10)), state)).data.amount, 100);
    assert.equal(only(decide(cmd.spend('img-1', at(15)), state)).data.amount, 100);
  });

  it('is refused with INVALID_ARGUMENT without a dispute id', () => {
    const { state } = given(cmd.plan('sub-1', 'lite', 'monthly', T0));
    refusal(cmd.reversePlan('sub-1', T0, T0, ''), state, 'INVALID_ARGUMENT');
  });
});

describe('UnlockImage', () => {
  it('charges 100 tokens to unlock an image, once per image id', () => {
    const { state } = given(cmd.signUp());
    const event = only(decide(cmd.unlock('img-1'), state));
    assert.equal(event.type, 'TokensSpent');
    assert.deepEqual(
      { ...event.data },
      {
        businessKey: 'image-unlock:img-1',
        occurredAt: T0.toISOString(),
        imageId: 'img-1',
        purpose: 'unlock',
        unlimitedPlan: false,
        amount: 100,
        description: 'Image unlock',
      },
    );
    const after = evolve(state, event);
    assert.equal(after.balance, 100);
    assert.deepEqual(decide(cmd.unlock('img-1', at(1)), after), []);
  });

  it('keeps unlocking and enhancing the same image apart', () => {
    const { state } = given(cmd.signUp(), cmd.spend('img-1'), cmd.unlock('img-1'));
    assert.equal(state.balance, 0);
  });

  it('is refused with INSUFFICIENT_TOKENS below 100 tokens', () => {
    const refused = refusal(cmd.unlock('img-1'), given(cmd.credit('p', 99)).state, 'INSUFFICIENT_TOKENS');
    assert.equal(refused.balance, 99);
    assert.equal(refused.required, 100);
  });
});

describe('AdminAdjust', () => {
  it('adds tokens, recording the operator and the reason', () => {
    const event = only(decide(cmd.adjust('adj-1', 'add', 300), initialState()));
    assert.equal(event.type, 'TokensAdjusted');
    assert.deepEqual(event.data, {
      businessKey: 'adjustment:adj-1',
      occurredAt: T0.toISOString(),
      adjustmentId: 'adj-1',
      operatorId: 'operator-1',
      reason: 'support ticket 42',
      direction: 'add',
      requested: 300,
      amount: 300,
      description: 'Adjustment by support',
    });
    assert.equal(balanceDelta(event), 300);
  });

  it('deducts at most the balance: the balance stops at 0', () => {
    const { state } = given(cmd.signUp());
    const event = only(decide(cmd.adjust('adj-1', 'deduct', 500), state));
    assert.equal(event.type === 'TokensAdjusted' && event.data.requested, 500);
    assert.equal(event.data.amount, 200);
    assert.equal(evolve(state, event).balance, 0);
  });

  it('records a deduct from an empty account as an adjustment of 0', () => {
    const event = only(decide(cmd.adjust('adj-1', 'deduct', 50), initialState()));
    assert.equal(event.data.amount, 0);
    assert.equal(evolve(initialState(), event).balance, 0);
  });

  it('applies once per adjustment id', () => {
    const { state, events } = given(cmd.adjust('adj-1', 'add', 50), cmd.adjust('adj-1', 'add', 50));
    assert.equal(events.length, 1);
    assert.equal(state.balance, 50);
  });

  it('is refused with INVALID_ARGUMENT without an operator, a reason, a direction or a positive amount', () => {
    const base = cmd.adjust('adj-1', 'add', 10);
    if (base.type !== 'AdminAdjust') throw new Error('fixture');
    for (const data of [
      { ...base.data, operatorId: '' },
      { ...base.data, reason: '   ' },
      { ...base.data, direction: 'set' as 'add' },
      { ...base.data, tokens: 0 },
    ]) {
      refusal({ type: 'AdminAdjust', data }, initialState(), 'INVALID_ARGUMENT');
    }
  });
});

describe('CloseAccount', () => {
  it('closes the account, keeping the balance it had on record', () => {
    const { state } = given(cmd.signUp(), cmd.spend('img-1'));
    const event = only(decide(cmd.close(at(1)), state));
    assert.equal(event.type, 'AccountClosed');
    assert.equal(event.type === 'AccountClosed' && event.data.balanceAtClosing, 100);
    const closed = evolve(state, event);
    assert.equal(closed.status, 'closed');
    assert.equal(closed.balance, 100);
  });

  it('refuses every new movement with ACCOUNT_CLOSED', () => {
    const { state } = given(cmd.signUp(), cmd.spend('img-1'), cmd.close(at(1)));
    for (const command of [
      cmd.spend('img-2', at(2)),
      cmd.unlock('img-3', at(2)),
      cmd.refund('img-1', at(2)),
      cmd.credit('pay-1', 100, 'main', at(2)),
      cmd.plan('sub-1', 'lite', 'monthly', at(2)),
      cmd.adjust('adj-1', 'add', 10, at(2)),
    ]) {
      refusal(command, state, 'ACCOUNT_CLOSED');
    }
  });

  it('stays idempotent after closing: a redelivered command or close yields no events', () => {
    const { state } = given(cmd.signUp(), cmd.spend('img-1'), cmd.close(at(1)));
    assert.deepEqual(decide(cmd.spend('img-1', at(2)), state), []);
    assert.deepEqual(decide(cmd.signUp(at(2)), state), []);
    assert.deepEqual(decide(cmd.close(at(2)), state), []);
  });
});

describe('Commands that are not well formed', () => {
  it('are refused with INVALID_ARGUMENT', () => {
    const { state } = given(cmd.signUp());
    refusal(cmd.spend('img-1', new Date(Number.NaN)), state, 'INVALID_ARGUMENT');
    refusal(cmd.spend(''), state, 'INVALID_ARGUMENT');
    refusal({ type: 'MintTokens', data: { at: T0 } } as unknown as TokenAccountCommand, state, 'INVALID_ARGUMENT');
  });
});

describe('Replay', () => {
  it('rebuilds the same state from the events, also after they travel as JSON', () => {
    const { state, events } = given(
      cmd.signUp(),
      cmd.plan('sub-u', 'unlimited', 'monthly', at(1)),
      cmd.spend('img-1', at(2)),
      cmd.endUnlimited('sub-u', at(3)),
      cmd.spend('img-2', at(4)),
      cmd.refund('img-2', at(5)),
      cmd.credit('pay-1', 500, 'main', at(6)),
      cmd.adjust('adj-1', 'deduct', 50, at(7)),
      cmd.close(at(8)),
    );
    assert.deepEqual(replay(events), state);
    const wire = JSON.parse(JSON.stringify(events)) as TokenAccountEvent[];
    assert.deepEqual(replay(wire), state);
    assert.equal(state.balance, 200 - 0 - 100 + 100 + 500 - 50);
    assert.equal(
      state.balance,
      events.reduce((sum, e) => sum + balanceDelta(e), 0),
    );
  });
});
