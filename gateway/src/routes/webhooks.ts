// POST /api/webhooks/stripe: the payment provider's events. The signature covers the exact bytes
// sent, so the body is kept raw and handed to billing as it came; billing checks the signature
// (stripe.webhooks.constructEvent) and handles each event id once.
import { z } from 'zod';
import { AppError, call } from '@flatlay/platform';
import { refusal } from '../api/responses.js';
import { route, type ApiRoute } from '../api/route.js';
import type { ServiceClients } from '../clients.js';

const BAD_SIGNATURE = 'Invalid webhook signature';

export function webhookRoutes(clients: ServiceClients): ApiRoute[] {
  return [
    route({
      method: 'post',
      path: '/webhooks/stripe',
      tags: ['payments'],
      access: 'none',
      summary: "Stripe's events, signed (Stripe-Signature header)",
      description:
        'A missing or wrong signature is refused (400) and changes nothing; an event id seen before answers 200 again with duplicate: true and changes nothing.',
      request: {
        body: {
          type: 'application/json',
          raw: true,
          limit: 512 * 1024,
          schema: z
            .object({
              id: z.string({ error: 'id is required' }).min(1, { error: 'id is required' }),
              type: z.string({ error: 'type is required' }).min(1, { error: 'type is required' }),
            })
            .loose()
            .meta({ description: 'A Stripe event' }),
        },
      },
      responses: {
        200: {
          description: 'Handled (or handled before)',
          schema: z.object({ received: z.literal(true), duplicate: z.boolean(), type: z.string() }),
        },
        400: refusal('INVALID_ARGUMENT', BAD_SIGNATURE, 'No or a wrong signature, or a body that is not an event'),
        501: refusal('NOT_CONFIGURED', 'Stripe webhooks are not configured', 'No webhook secret is configured'),
      },
      async handle(req, res) {
        const signature = req.headers['stripe-signature'];
        if (typeof signature !== 'string' || !signature || !req.rawBody)
          throw new AppError('INVALID_ARGUMENT', `${BAD_SIGNATURE}: no Stripe-Signature header`);
        const b = clients.billing();
        const r = await call(b, b.handleWebhook, { payload: req.rawBody, signature }, { deadlineMs: 30_000 });
        res.json({ received: true, duplicate: r.duplicate, type: r.eventType });
      },
    }),
  ];
}
