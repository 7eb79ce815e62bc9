/**
 * The state of a TokenAccount, derived only from its events: initialState, evolve, replay.
 */
import { balanceDelta, type TokenAccountEvent } from './token-account-events.js';
import { PersistentMap, PersistentSet } from './persistent-collections.js';
import { UNLIMITED_PLAN, type BillingPeriod, type PlanId } from './token-rules.js';

export interface UnlimitedPeriod {
  readonly subscriptionId: string;
  /** ISO-8601, inclusive. */
  readonly from: string;
  /** ISO-8601, exclusive. */
  readonly until: string;
}

export interface TokenAccountState {
  readonly status: 'open' | 'closed';
  readonly balance: number;
  /**
   * Business keys of every event applied: the idempotency record. Persistent collections, so
   * evolving an account with a long history does not copy that history (docs/decisions/0006).
   */
  readonly appliedKeys: PersistentSet<string>;
  /** Tokens each image's enhancement charged, so a refund gives back exactly that. */
  readonly imageSpends: PersistentMap<string, number>;
  readonly unlimitedPeriods: readonly UnlimitedPeriod[];
  /** subscriptionId -> when its unlimited plan was ended early (ISO-8601). */
  readonly unlimitedEndedAt: PersistentMap<string, string>;
  /** What each plan period granted, by its GrantPlan business key, so a reversal takes back exactly that. */
  readonly planGrants: PersistentMap<string, PlanGrant>;
}

export interface PlanGrant {
  readonly plan: PlanId;
  readonly billingPeriod: BillingPeriod;
  /** Tokens granted (0 for the unlimited plan). */
  readonly tokens: number;
}

export function initialState(): TokenAccountState {
  return {
    status: 'open',
    balance: 0,
    appliedKeys: PersistentSet.empty(),
    imageSpends: PersistentMap.empty(),
    unlimitedPeriods: [],
    unlimitedEndedAt: PersistentMap.empty(),
    planGrants: PersistentMap.empty(),
  };
}

/** Whether an unlimited plan covers the instant `at`. */
export function isUnlimitedAt(state: TokenAccountState, at: Date): boolean {
  const t = at.getTime();
  return state.unlimitedPeriods.some((period) => {
    const endedAt = state.unlimitedEndedAt.get(period.subscriptionId);
    const until = Math.min(Date.parse(period.until), endedAt === undefined ? Infinity : Date.parse(endedAt));
    return Date.parse(period.from) <= t && t < until;
  });
}

export function evolve(state: TokenAccountState, event: TokenAccountEvent): TokenAccountState {
  const next: TokenAccountState = {
    ...state,
    balance: state.balance + balanceDelta(event),
    appliedKeys: state.appliedKeys.add(event.data.businessKey),
  };
  switch (event.type) {
    case 'TokensGranted':
      return event.data.source === 'plan'
        ? {
            ...next,
            planGrants: state.planGrants.set(event.data.businessKey, {
              plan: event.data.plan,
              billingPeriod: event.data.billingPeriod,
              tokens: event.data.amount,
            }),
          }
        : next;
    case 'TokensSpent':
      return event.data.purpose === 'enhancement'
        ? { ...next, imageSpends: state.imageSpends.set(event.data.imageId, event.data.amount) }
        : next;
    case 'UnlimitedPlanStarted': {
      const { subscriptionId, periodStart: from, periodEnd: until } = event.data;
      return {
        ...next,
        unlimitedPeriods: [...state.unlimitedPeriods, { subscriptionId, from, until }],
        planGrants: state.planGrants.set(event.data.businessKey, {
          plan: UNLIMITED_PLAN.id,
          billingPeriod: event.data.billingPeriod,
          tokens: 0,
        }),
      };
    }
    case 'UnlimitedPlanEnded': {
      // The earliest end stands: a cancellation after a disputed period's reversal (or the other
      // way round) never opens the window again.
      const earlier = state.unlimitedEndedAt.get(event.data.subscriptionId);
      if (earlier !== undefined && Date.parse(earlier) <= Date.parse(event.data.occurredAt)) return next;
      return {
        ...next,
        unlimitedEndedAt: state.unlimitedEndedAt.set(event.data.subscriptionId, event.data.occurredAt),
      };
    }
    case 'AccountClosed':
      return { ...next, status: 'closed' };
    default:
      return next;
  }
}

/** Folds a stream into the state it stands for. */
export function replay(events: Iterable<TokenAccountEvent>, from = initialState()): TokenAccountState {
  let state = from;
  for (const event of events) state = evolve(state, event);
  return state;
}
