// What the account page and the subscribe pages show about a plan: pure rules, tested alone.
import type { SubscriptionStatus } from './billing-api';

export type BillingPeriod = 'monthly' | 'yearly';

/** The plan keys checkout accepts: `{plan}_{period}`, e.g. studio_monthly. */
export const SUBSCRIPTION_PLANS = ['lite', 'studio'] as const;

export function parsePlanKey(key: string | null | undefined, plans: readonly string[] = SUBSCRIPTION_PLANS) {
  const match = /^([a-z]+)_(monthly|yearly)$/.exec(key ?? '');
  if (!match || !plans.includes(match[1] ?? '')) return null;
  return { plan: match[1] as string, period: match[2] as BillingPeriod };
}

/** A unix-seconds date as the account page shows it; N/A when unknown. */
export function formatPeriodEnd(seconds: number | null | undefined): string {
  if (!seconds || !Number.isFinite(seconds) || seconds <= 0) return 'N/A';
  return new Date(seconds * 1000).toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });
}

export const planTitle = (plan: string | null | undefined) => {
  const name = (plan ?? '').trim();
  if (!name) return 'Unknown plan';
  return `${name.charAt(0).toUpperCase()}${name.slice(1)} Plan`;
};

export interface SubscriptionView {
  badge: 'active' | 'past_due' | 'canceled' | 'cancelling';
  badgeLabel: string;
  dateLabel: 'Next Billing Date' | 'Ends On' | 'Ended On';
  date: string;
  canCancel: boolean;
  canManageBilling: boolean;
}

/** The subscription card: 'Cancelling' and 'Ends On' once cancelled at period end. */
export function subscriptionView(s: SubscriptionStatus): SubscriptionView {
  const date = formatPeriodEnd(s.currentPeriodEnd);
  if (s.status === 'canceled')
    return {
      badge: 'canceled',
      badgeLabel: 'Canceled',
      dateLabel: 'Ended On',
      date,
      canCancel: false,
      canManageBilling: true,
    };
  if (s.cancelAtPeriodEnd)
    return {
      badge: 'cancelling',
      badgeLabel: 'Cancelling',
      dateLabel: 'Ends On',
      date,
      canCancel: false,
      canManageBilling: true,
    };
  if (s.status === 'past_due')
    return {
      badge: 'past_due',
      badgeLabel: 'Past Due',
      dateLabel: 'Next Billing Date',
      date,
      canCancel: false,
      canManageBilling: true,
    };
  return {
    badge: 'active',
    badgeLabel: 'Active',
    dateLabel: 'Next Billing Date',
    date,
    canCancel: s.status === 'active',
    canManageBilling: true,
  };
}
