// The dashboard's figures as the spec defines them. The server computes them from its read models
// (GET /api/admin/stats/overview); these are the same rules for display and for the fallback.

/** This month against last month, in percent; 100 when last month had none and this month some. */
export function growthPercent(thisMonth: number, lastMonth: number): number {
  if (lastMonth === 0) return thisMonth > 0 ? 100 : 0;
  return ((thisMonth - lastMonth) / lastMonth) * 100;
}

export const formatGrowth = (percent: number) => `${percent > 0 ? '+' : ''}${percent.toFixed(1)}%`;

/** Total paid minus the paid users a plan accounts for, never below 0. */
export function anonymousPaidUsers(
  totalPaid: number,
  plans: { lite: number; studio: number; bulk: number; unlimited: number },
): number {
  return Math.max(0, totalPaid - (plans.lite + plans.studio + plans.bulk + plans.unlimited));
}

/** Badge colours: blue lite, purple studio, orange bulk, green unlimited. */
export const PLAN_COLOURS = {
  lite: 'blue',
  studio: 'purple',
  bulk: 'orange',
  unlimited: 'green',
  none: 'grey',
} as const;

export type PlanName = keyof typeof PLAN_COLOURS;

export const PLAN_LABELS: Record<PlanName, string> = {
  lite: 'Lite',
  studio: 'Studio',
  bulk: 'Bulk',
  unlimited: 'Unlimited',
  none: 'No Plan',
};

export const planColour = (plan: string): string => PLAN_COLOURS[plan as PlanName] ?? PLAN_COLOURS.none;

/** A bar's width as a share of the largest count (0 when there is nothing to compare). */
export const barPercent = (count: number, total: number) => (total > 0 ? Math.round((count / total) * 100) : 0);
