/**
 * Property-based tests of the TokenAccount decider (fast-check): random sequences of commands,
 * checked against a small independent model of the token rules.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import fc from 'fast-check';
import { DAY, T0, cmd, comparableState } from './token-account.fixtures.js';
import type { TokenAccountCommand } from './token-account-commands.js';
import type { TokenAccountEvent } from './token-account-events.js';
import { TokenAccountRefusal, type TokenAccountRefusalCode } from './token-account-refusal.js';
import { decide, evolve, initialState, replay, type TokenAccountState } from './token-account.js';

const RUNS = { numRuns: 400 };

// ---- commands: small pools of ids so that keys repeat and collide often ----
const imageId = fc.constantFrom('img-0', 'img-1', 'img-2', 'img-3', 'img-4');
const when = fc.integer({ min: 0, max: 120 }).map((days) => new Date(T0.getTime() + days * DAY));
const periodStart = fc.constantFrom(0, 30, 60, 90).map((days) => new Date(T0.getTime() + days * DAY));

const movementCommand: fc.Arbitrary<TokenAccountCommand> = fc.oneof(
  when.map((t) => cmd.signUp(t)),
  fc.tuple(imageId, when).map(([id, t]) => cmd.spend(id, t)),
  fc.tuple(imageId, when).map(([id, t]) => cmd.spend(id, t)),
  fc.tuple(imageId, when).map(([id, t]) => cmd.refund(id, t)),
  fc.tuple(imageId, when).map(([id, t]) => cmd.unlock(id, t)),
  fc
    .tuple(fc.constantFrom('pay-0', 'pay-1', 'pay-2'), fc.integer({ min: 1, max: 1000 }), when)
    .map(([id, tokens, t]) => cmd.credit(id, tokens, 'main', t)),
  fc
    .tuple(
      fc.constantFrom('sub-0', 'sub-1'),
      fc.constantFrom('lite', 'studio', 'unlimited'),
      fc.constantFrom('monthly' as const, 'yearly' as const),
      periodStart,
    )
    .map(([sub, plan, period, start]) => cmd.plan(sub, plan, period, start)),
  fc.tuple(fc.constantFrom('sub-0', 'sub-1'), when).map(([sub, t]) => cmd.endUnlimited(sub, t)),
  fc
    .tuple(fc.constantFrom('sub-0', 'sub-1'), periodStart, when)
    .map(([sub, start, t]) => cmd.reversePlan(sub, start, t)),
  fc
    .tuple(
      fc.constantFrom('adj-0', 'adj-1', 'adj-2'),
      fc.constantFrom('add' as const, 'deduct' as const),
      fc.integer({ min: 1, max: 5000 }),
      when,
    )
    .map(([id, direction, tokens, t]) => cmd.adjust(id, direction, tokens, t)),
);
// Closing ends all movement, so it comes rarely: most sequences stay open long enough to matter.
const command = fc.oneof(
  { arbitrary: movementCommand, weight: 40 },
  { arbitrary: when.map((t) => cmd.close(t)), weight: 1 },
);
const commands = fc.array(command, { maxLength: 60 });

// ---- an independent model of the rules ----
type Expected =
  | { outcome: 'accepted'; delta: number }
  | { outcome: 'no-op' }
  | { outcome: 'refused'; code: TokenAccountRefusalCode };

class Model {
  balance = 0;
  closed = false;
  readonly done = new Set<string>();
  readonly charged = new Map<string, number>();
  readonly unlimited: Array<{ sub: string; from: number; until: number }> = [];
  readonly ended = new Map<string, number>();
  /** What each granted plan period gave: tokens, or an unlimited window. */
  readonly grants = new Map<string, { tokens: number; unlimited: boolean }>();

  end(sub: string, t: number): void {
    this.ended.set(sub, Math.min(t, this.ended.get(sub) ?? Infinity));
  }

  free(t: Date): boolean {
    return this.unlimited.some(
      (w) => w.from <= t.getTime() && t.getTime() < Math.min(w.until, this.ended.get(w.sub) ?? Infinity),
    );
  }

  /** What the rules say should happen, and the model's state after it. */
  apply(c: TokenAccountCommand): Expected {
    const key = modelKey(c);
    if (this.done.has(key)) return { outcome: 'no-op' };
    if (this.closed) return { outcome: 'refused', code: 'ACCOUNT_CLOSED' };
    let delta = 0;
    switch (c.type) {
      case 'SignUpGrant':
        delta = 200;
        break;
      case 'SpendForImage':
      case 'UnlockImage': {
        const cost = this.free(c.data.at) ? 0 : 100;
        if (this.balance < cost) return { outcome: 'refused', code: 'INSUFFICIENT_TOKENS' };
        delta = -cost;
        if (c.type === 'SpendForImage') this.charged.set(c.data.imageId, cost);
        break;
      }
      case 'RefundImageSpend': {
        const cost = this.charged.get(c.data.imageId);
        if (cost === undefined) return { outcome: 'refused', code: 'SPEND_NOT_FOUND' };
        delta = cost;
        break;
      }
      case 'CreditPayment':
        delta = c.data.tokens;
        break;
      case 'GrantPlan': {
        const perMonth = { lite: 1700, studio: 4000, unlimited: 0 }[c.data.plan];
        delta = c.data.billingPeriod === 'yearly' ? perMonth * 12 : perMonth;
        this.grants.set(`${c.data.subscriptionId}/${c.data.periodStart.getTime()}`, {
          tokens: delta,
          unlimited: c.data.plan === 'unlimited',
        });
        if (c.data.plan === 'unlimited') {
          this.unlimited.push({
            sub: c.data.subscriptionId,
            from: c.data.periodStart.getTime(),
            until: c.data.periodEnd.getTime(),
          });
        }
        break;
      }
      case 'EndUnlimitedPlan':
        this.end(c.data.subscriptionId, c.data.at.getTime());
        break;
      case 'ReversePlanGrant': {
        const grant = this.grants.get(`${c.data.subscriptionId}/${c.data.periodStart.getTime()}`);
        if (grant === undefined) return { outcome: 'refused', code: 'PLAN_GRANT_NOT_FOUND' };
        if (grant.unlimited) this.end(c.data.subscriptionId, c.data.at.getTime());
        else delta = -Math.min(grant.tokens, this.balance);
        break;
      }
      case 'AdminAdjust':
        delta = c.data.direction === 'add' ? c.data.tokens : -Math.min(c.data.tokens, this.balance);
        break;
      case 'CloseAccount':
        this.closed = true;
        break;
    }
    this.done.add(key);
    this.balance += delta;
    return { outcome: 'accepted', delta };
  }
}

function modelKey(c: TokenAccountCommand): string {
  switch (c.type) {
    case 'SpendForImage':
    case 'RefundImageSpend':
    case 'UnlockImage':
      return `${c.type}/${c.data.imageId}`;
    case 'CreditPayment':
    case 'ReversePayment':
      return `${c.type}/${c.data.paymentId}`;
    case 'GrantPlan':
    case 'ReversePlanGrant':
      return `${c.type}/${c.data.subscriptionId}/${c.data.periodStart.getTime()}`;
    case 'EndUnlimitedPlan':
      return `${c.type}/${c.data.subscriptionId}`;
    case 'AdminAdjust':
      return `${c.type}/${c.data.adjustmentId}`;
    case 'SignUpGrant':
    case 'CloseAccount':
      return c.type;
  }
}

/** The balance movement of an event, read independently of the implementation's balanceDelta. */
function movement(event: TokenAccountEvent): number {
  const credits = ['TokensGranted', 'TokensCredited', 'TokensRefunded'];
  if (credits.includes(event.type)) return event.data.amount;
  if (event.type === 'TokensSpent' || event.type === 'TokensReversed' || event.type === 'PlanTokensReversed')
    return -event.data.amount;
  if (event.type === 'TokensAdjusted') return event.data.direction === 'add' ? event.data.amount : -event.data.amount;
  assert.equal(event.data.amount, 0, `${event.type} moves no tokens`);
  return 0;
}

type Step = {
  command: TokenAccountCommand;
  events: TokenAccountEvent[];
  refusal?: TokenAccountRefusal;
  before: TokenAccountState;
};

function run(sequence: TokenAccountCommand[]): {
  state: TokenAccountState;
  events: TokenAccountEvent[];
  steps: Step[];
} {
  let state = initialState();
  const events: TokenAccountEvent[] = [];
  const steps: Step[] = [];
  for (const command of sequence) {
    const before = state;
    try {
      const emitted = decide(command, state);
      for (const event of emitted) state = evolve(state, event);
      events.push(...emitted);
      steps.push({ command, events: emitted, before });
    } catch (error) {
      if (!(error instanceof TokenAccountRefusal)) throw error;
      steps.push({ command, events: [], refusal: error, before });
    }
  }
  return { state, events, steps };
}

function matchesModel(sequence: TokenAccountCommand[]): void {
  const model = new Model();
  const { state, steps } = run(sequence);
  for (const step of steps) {
    const expected = model.apply(step.command);
    if (expected.outcome === 'refused') {
      assert.equal(step.refusal?.code, expected.code, `${step.command.type} should be refused`);
      assert.equal(step.refusal?.balance, step.before.balance, 'a refusal tells the current balance');
    } else if (expected.outcome === 'no-op') {
      assert.equal(step.refusal, undefined);
      assert.deepEqual(step.events, []);
    } else {
      assert.equal(step.refusal, undefined, `${step.command.type} refused: ${step.refusal?.message}`);
      assert.equal(step.events.length, 1);
      assert.equal(movement(step.events[0]!), expected.delta);
    }
  }
  assert.equal(state.balance, model.balance);
}

describe('TokenAccount properties', () => {
  it('the balance equals the sum of accepted movements and is never negative', () => {
    fc.assert(
      fc.property(commands, (sequence) => {
        let state = initialState();
        let sum = 0;
        for (const command of sequence) {
          let emitted: TokenAccountEvent[] = [];
          try {
            emitted = decide(command, state);
          } catch (error) {
            if (!(error instanceof TokenAccountRefusal)) throw error;
          }
          for (const event of emitted) {
            assert.ok(
              Number.isSafeInteger(event.data.amount) && event.data.amount >= 0,
              'amounts are whole and not negative',
            );
            sum += movement(event);
            state = evolve(state, event);
            assert.ok(state.balance >= 0, `balance went below 0: ${state.balance}`);
          }
          assert.equal(state.balance, sum);
        }
      }),
      RUNS,
    );
  });

  it('decides as the token rules say: accepted movements, no-ops and refusals match the model', () => {
    fc.assert(fc.property(commands, matchesModel), RUNS);
  });

  it('matches the model on an account that starts on an unlimited plan', () => {
    const withUnlimitedPlan = fc
      .tuple(fc.constantFrom('sub-0', 'sub-1'), fc.constantFrom('monthly' as const, 'yearly' as const), commands)
      .map(([sub, period, rest]) => [cmd.plan(sub, 'unlimited', period, T0), ...rest]);
    fc.assert(fc.property(withUnlimitedPlan, matchesModel), RUNS);
  });

  it('replaying the event stream gives the same state, also after a JSON round trip', () => {
    fc.assert(
      fc.property(commands, (sequence) => {
        const { state, events } = run(sequence);
        assert.deepEqual(comparableState(replay(events)), comparableState(state));
        assert.deepEqual(
          comparableState(replay(JSON.parse(JSON.stringify(events)) as TokenAccountEvent[])),
          comparableState(state),
        );
      }),
      RUNS,
    );
  });

  it('each business key takes effect at most once', () => {
    fc.assert(
      fc.property(commands, (sequence) => {
        const { state, events, steps } = run(sequence);
        const keys = events.map((event) => event.data.businessKey);
        assert.equal(new Set(keys).size, keys.length, 'no business key appears twice in the stream');
        // Every command that took effect is a no-op when delivered again, in any later state.
        for (const step of steps.filter((s) => s.events.length > 0)) {
          assert.deepEqual(decide(step.command, state), []);
        }
      }),
      RUNS,
    );
  });

  it('delivering every command twice in a row changes nothing compared with once', () => {
    fc.assert(
      fc.property(commands, (sequence) => {
        const once = run(sequence);
        const twice = run(sequence.flatMap((c) => [c, c]));
        assert.deepEqual(twice.events, once.events);
        assert.deepEqual(comparableState(twice.state), comparableState(once.state));
      }),
      RUNS,
    );
  });

  it('a refund follows its enhancement spend and gives back exactly what it charged', () => {
    fc.assert(
      fc.property(commands, (sequence) => {
        const charged = new Map<string, number>();
        for (const event of run(sequence).events) {
          if (event.type === 'TokensSpent' && event.data.purpose === 'enhancement')
            charged.set(event.data.imageId, event.data.amount);
          if (event.type === 'TokensRefunded') assert.equal(event.data.amount, charged.get(event.data.imageId));
        }
      }),
      RUNS,
    );
  });
});
