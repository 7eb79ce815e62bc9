// The unlimited plan granted by an administrator, without a payment. Pure: the user's current
// subscription (if any) and the complimentary one come in; the new record and the events go out.
//
// - It is a subscription of billing's own (id comp_{plan}_{user}), so identity, the ledger, the
//   image service and analytics learn it from the events they already read for paid plans:
//   SubscriptionActivated when granted, SubscriptionCanceled (immediate) when revoked.
// - Its period runs for a century: it has no renewal, and ends only when revoked.
// - A user paying for another plan is refused (409): the two would fight over the profile's plan.
import { AppError } from '@flatlay/platform';
import type { SubscriptionEvent, SubscriptionRecord } from './subscription.js';

export const COMPLIMENTARY_PLANS = ['unlimited'] as const;
const CENTURY_MS = 100 * 365.25 * 24 * 3600 * 1000;

export const complimentaryId = (plan: string, userId: string) => `comp_${plan}_${userId}`;

export interface ComplimentaryDecision {
  record: SubscriptionRecord;
  events: SubscriptionEvent[];
  message: string;
}

export function grantComplimentary(
  input: { userId: string; plan: string; email: string; now: Date },
  current: SubscriptionRecord | undefined,
  existing: SubscriptionRecord | undefined,
): ComplimentaryDecision {
  const { userId, plan, email, now } = input;
  if (!(COMPLIMENTARY_PLANS as readonly string[]).includes(plan))
    throw new AppError('INVALID_ARGUMENT', `Only the unlimited plan can be granted (not "${plan}")`);
  if (existing && existing.status === 'active') throw new AppError('CONFLICT', `${email} already has the ${plan} plan`);
  if (current && current.status !== 'canceled' && current.subscriptionId !== complimentaryId(plan, userId))
    throw new AppError(
      'CONFLICT',
      `${email} pays for the ${current.plan} plan: cancel that subscription before granting ${plan}`,
    );
  const end = new Date(now.getTime() + CENTURY_MS);
  const record: SubscriptionRecord = {
    subscriptionId: complimentaryId(plan, userId),
    userId,
    customerId: '',
    plan,
    billingPeriod: 'monthly',
    status: 'active',
    cancelAtPeriodEnd: false,
    currentPeriodStart: now,
    currentPeriodEnd: end,
    asOf: now,
  };
  return {
    record,
    events: [
      {
        type: 'SubscriptionActivated',
        data: {
          subscriptionId: record.subscriptionId,
          userId,
          plan,
          billingPeriod: 'monthly',
          periodStart: now,
          periodEnd: end,
        },
      },
    ],
    message: `${email} now has the ${plan} plan`,
  };
}

export function revokeComplimentary(
  input: { userId: string; plan: string; email: string; now: Date },
  existing: SubscriptionRecord | undefined,
): ComplimentaryDecision {
  const { plan, email, now } = input;
  if (!existing || existing.status === 'canceled')
    throw new AppError('NOT_FOUND', `${email} has no ${plan} plan granted by an administrator`);
  const record: SubscriptionRecord = { ...existing, status: 'canceled', currentPeriodEnd: now, asOf: now };
  return {
    record,
    events: [
      {
        type: 'SubscriptionCanceled',
        data: {
          subscriptionId: existing.subscriptionId,
          userId: existing.userId,
          plan,
          immediate: true,
          effectiveAt: now,
        },
      },
    ],
    message: `${email} no longer has the ${plan} plan`,
  };
}
