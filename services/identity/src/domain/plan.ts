// How billing's subscription events move the plan fields of a profile. Pure.
import { isPlan, type Plan, type SubscriptionStatus } from './profile.js';

export interface PlanState {
  plan: Plan;
  status: SubscriptionStatus;
  subscriptionId: string;
  periodEnd: Date | null;
  /** When the last applied subscription event happened; older events change nothing. */
  asOf: Date | null;
}

export const noPlan: PlanState = { plan: 'none', status: '', subscriptionId: '', periodEnd: null, asOf: null };

export type SubscriptionFact =
  | { type: 'activated' | 'renewed'; subscriptionId: string; plan: string; periodEnd: Date | null; occurredAt: Date }
  | {
      // The subscription's state as billing last saw it: past_due after a failed renewal, active again, canceled.
      type: 'status';
      subscriptionId: string;
      plan: string;
      status: 'active' | 'past_due' | 'canceled';
      periodEnd: Date | null;
      occurredAt: Date;
    }
  | {
      type: 'canceled';
      subscriptionId: string;
      plan: string;
      immediate: boolean;
      effectiveAt: Date | null;
      occurredAt: Date;
    };

/**
 * The plan state after a subscription fact, or undefined when the fact changes nothing:
 * it is older than the last one applied, names an unknown plan, or is a cancellation at the
 * period's end (access runs until then; billing reports the end as an immediate cancellation).
 */
export function applySubscriptionFact(state: PlanState, fact: SubscriptionFact): PlanState | undefined {
  if (state.asOf && fact.occurredAt.getTime() < state.asOf.getTime()) return undefined;
  if (fact.type === 'status' && fact.status === 'canceled')
    return applySubscriptionFact(state, { ...fact, type: 'canceled', immediate: true, effectiveAt: fact.occurredAt });
  if (fact.type === 'canceled') {
    if (!fact.immediate) return undefined;
    if (state.subscriptionId && fact.subscriptionId !== state.subscriptionId) return undefined; // an older subscription ends
    return {
      plan: 'none',
      status: 'canceled',
      subscriptionId: fact.subscriptionId,
      periodEnd: fact.effectiveAt ?? fact.occurredAt,
      asOf: fact.occurredAt,
    };
  }
  if (!isPlan(fact.plan) || fact.plan === 'none') return undefined;
  return {
    plan: fact.plan,
    status: fact.type === 'status' ? fact.status : 'active',
    subscriptionId: fact.subscriptionId,
    periodEnd: fact.periodEnd,
    asOf: fact.occurredAt,
  };
}

export const samePlan = (a: PlanState, b: PlanState) =>
  a.plan === b.plan &&
  a.status === b.status &&
  a.subscriptionId === b.subscriptionId &&
  a.periodEnd?.getTime() === b.periodEnd?.getTime();
