// /api/subscription and /api/create-billing-portal: the caller's plan as the account page shows
// it, a cancel at the end of the paid period, and the provider's billing portal.
import { z } from 'zod';
import { call } from '@flatlay/platform';
import { toApi } from '../api/api-view.js';
import { refusal } from '../api/responses.js';
import { route, type ApiRoute } from '../api/route.js';
import type { ServiceClients } from '../clients.js';
import { callerMetadata, callerOf } from '../http/auth.js';

const PROVIDER_DEADLINE_MS = 15_000;

export const SubscriptionStatusBody = z
  .object({
    hasSubscription: z.boolean(),
    subscriptionPlan: z
      .string()
      .nullable()
      .meta({ description: "lite, studio (or an operator's bulk, unlimited); null without a subscription" }),
    status: z.enum(['active', 'past_due', 'canceled']).nullable(),
    cancelAtPeriodEnd: z.boolean(),
    currentPeriodEnd: z.number().int().nullable().meta({ description: 'Unix seconds; null without a subscription' }),
    billingPeriod: z.enum(['monthly', 'yearly']).nullable(),
  })
  .meta({ id: 'SubscriptionStatus' });

export function subscriptionRoutes(clients: ServiceClients): ApiRoute[] {
  const tags = ['subscription'];
  const billing = () => clients.billing();
  return [
    route({
      method: 'get',
      path: '/subscription/status',
      tags,
      access: 'user',
      summary: "The caller's subscription",
      responses: {
        200: {
          description: 'The subscription (hasSubscription false without one)',
          schema: SubscriptionStatusBody,
          example: {
            hasSubscription: true,
            subscriptionPlan: 'studio',
            status: 'active',
            cancelAtPeriodEnd: false,
            currentPeriodEnd: 1767225600,
            billingPeriod: 'monthly',
          },
        },
      },
      async handle(req, res) {
        const b = billing();
        const s = await call(b, b.getSubscription, { userId: callerOf(req).userId }, { metadata: callerMetadata(req) });
        // Without a status there is no period to end (the message's 0 is not a date).
        res.json(toApi(SubscriptionStatusBody, { ...s, currentPeriodEnd: s.status ? s.currentPeriodEnd : null }));
      },
    }),

    route({
      method: 'post',
      path: '/subscription/cancel',
      tags,
      access: 'user',
      summary: 'Cancel at the end of the paid period (the plan stays until then)',
      responses: {
        200: { description: 'Cancelled at period end', schema: z.object({ message: z.string() }) },
        404: refusal('NOT_FOUND', 'You have no active subscription to cancel.'),
        409: refusal('CONFLICT', 'The plan was granted by an administrator: there is no payment to cancel'),
      },
      async handle(req, res) {
        const b = billing();
        const { message } = await call(
          b,
          b.cancelSubscription,
          { userId: callerOf(req).userId },
          { metadata: callerMetadata(req), deadlineMs: PROVIDER_DEADLINE_MS },
        );
        res.json({ message });
      },
    }),

    route({
      method: 'post',
      path: '/create-billing-portal',
      tags,
      access: 'user',
      summary: "The payment provider's billing portal for the caller (cancel, resume, invoices)",
      responses: {
        200: {
          description: 'Where to send the browser',
          schema: z.object({ url: z.string() }),
        },
        404: refusal('NOT_FOUND', 'You have no billing account yet. Subscribe or buy a token pack first.'),
      },
      async handle(req, res) {
        const b = billing();
        const { url } = await call(
          b,
          b.createPortalSession,
          { userId: callerOf(req).userId },
          { metadata: callerMetadata(req), deadlineMs: PROVIDER_DEADLINE_MS },
        );
        res.json({ url });
      },
    }),
  ];
}
