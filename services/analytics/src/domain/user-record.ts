// How a projected user reads in the admin table. Pure.

export type Plan = 'none' | 'lite' | 'studio' | 'bulk' | 'unlimited';
export const plans: readonly Plan[] = ['lite', 'studio', 'bulk', 'unlimited', 'none'];

const PLAN_NAMES: Record<Plan, string> = {
  none: 'Free',
  lite: 'Lite',
  studio: 'Studio',
  bulk: 'Bulk',
  unlimited: 'Unlimited',
};

export const isPlan = (value: string): value is Plan => Object.hasOwn(PLAN_NAMES, value);
export const planName = (plan: string): string => (isPlan(plan) ? PLAN_NAMES[plan] : plan);

/** Paid plans: any plan but none. */
export const isPaidPlan = (plan: string) => isPlan(plan) && plan !== 'none';

/** Unlimited only while the unlimited plan is active (a canceled or past-due one counts tokens again). */
export const isUnlimited = (plan: string, status: string) => plan === 'unlimited' && status === 'active';
