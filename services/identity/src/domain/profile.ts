// Profile rules: display names, name splitting, avatar URLs and plan facts as the web app shows them. Pure.

export type Plan = 'none' | 'lite' | 'studio' | 'bulk' | 'unlimited';
export type SubscriptionStatus = '' | 'active' | 'past_due' | 'canceled';

const PLAN_NAMES: Record<Plan, string> = {
  none: '',
  lite: 'Lite',
  studio: 'Studio',
  bulk: 'Bulk',
  unlimited: 'Unlimited',
};

export const isPlan = (value: string): value is Plan => Object.hasOwn(PLAN_NAMES, value);

/** First plus last name, else first name, else the part of the e-mail before the at-sign. */
export function displayName(
  firstName: string | null | undefined,
  lastName: string | null | undefined,
  email: string,
): string {
  const first = firstName?.trim() ?? '';
  const last = lastName?.trim() ?? '';
  if (first && last) return `${first} ${last}`;
  if (first) return first;
  return email.split('@')[0] ?? email;
}

/** Splits a full name from an identity provider into first and last name (last may be empty). */
export function splitName(full: string | null | undefined): { firstName: string; lastName: string } {
  const parts = (full ?? '').trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return { firstName: '', lastName: '' };
  return { firstName: parts[0]!, lastName: parts.slice(1).join(' ') };
}

/** The name shown for a plan ('' for none). */
export const planName = (plan: Plan): string => PLAN_NAMES[plan];

/** Unlimited generations: the unlimited plan while its subscription is active and its period runs. */
export function isUnlimited(plan: Plan, status: SubscriptionStatus, periodEnd: Date | null, now: Date): boolean {
  return plan === 'unlimited' && status === 'active' && (periodEnd === null || periodEnd.getTime() > now.getTime());
}

/** Profile fields that are cut to sane lengths rather than refused (they come from providers). */
export function cleanProfileText(value: string | null | undefined, max = 100): string {
  return (value ?? '').trim().slice(0, max);
}

/** Only http(s) avatar URLs are kept; anything else (javascript:, data:) is dropped. */
export function cleanAvatarUrl(value: string | null | undefined): string {
  const v = (value ?? '').trim();
  if (!v || v.length > 2048) return '';
  try {
    const url = new URL(v);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : '';
  } catch {
    return '';
  }
}
