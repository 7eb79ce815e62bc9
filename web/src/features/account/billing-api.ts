// The account and subscription calls of the billing API. None is declared in the /api document
// yet (billing is being built beside this work): they go through the raw `apiRequest` with the
// spec's field names, and move to the typed client once their routes are declared.
import { apiRequest } from '../../api/http';

export type SubscriptionState = 'active' | 'past_due' | 'canceled';

export interface SubscriptionStatus {
  hasSubscription: boolean;
  subscriptionPlan?: string | null;
  status?: SubscriptionState | string | null;
  cancelAtPeriodEnd?: boolean;
  /** Unix seconds. */
  currentPeriodEnd?: number | null;
}

export const subscriptionKey = ['/api/subscription/status'] as const;

export const fetchSubscriptionStatus = (signal?: AbortSignal) =>
  apiRequest<SubscriptionStatus>('/api/subscription/status', { signal });

export const cancelSubscription = () =>
  apiRequest<{ message?: string }>('/api/subscription/cancel', { method: 'POST' });

export const openBillingPortal = () => apiRequest<{ url?: string }>('/api/create-billing-portal', { method: 'POST' });

export const fetchStripeConfig = (signal?: AbortSignal) =>
  apiRequest<{ publishableKey?: string | null }>('/api/stripe/config', { auth: false, signal });

export const startSubscriptionCheckout = (plan: string, promoCode?: string) =>
  apiRequest<{ url?: string; message?: string }>('/api/checkout/session', {
    json: { type: 'subscription', plan, ...(promoCode ? { promo_code: promoCode } : {}) },
  });
