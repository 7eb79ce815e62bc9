// The account and subscription calls of the billing API, through the typed client.
import { answerOf, api, noTokenApi } from '../../api/client';

export type { SubscriptionStatus } from '../../api/schema';

export const subscriptionKey = ['/api/subscription/status'] as const;

export const fetchSubscriptionStatus = (signal?: AbortSignal) => answerOf(api.GET('/subscription/status', { signal }));

export const cancelSubscription = () => answerOf(api.POST('/subscription/cancel'));

export const openBillingPortal = () => answerOf(api.POST('/create-billing-portal'));

export const fetchStripeConfig = (signal?: AbortSignal) => answerOf(noTokenApi.GET('/stripe/config', { signal }));

export const startSubscriptionCheckout = (plan: string, promoCode?: string) =>
  answerOf(
    api.POST('/checkout/session', {
      body: { type: 'subscription', plan, ...(promoCode ? { promo_code: promoCode } : {}) },
    }),
  );
