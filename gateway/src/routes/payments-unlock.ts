// A guest's $5 unlock and a signed-in user's unlock by payment (with its short-lived ticket for the
// browser's redirect), answered by billing and the image service. A payment is taken only for a
// completed image (docs/decisions/0601-billing.md).
import type { Request } from 'express';
import { z } from 'zod';
import { AppError, call } from '@flatlay/platform';
import { refusal } from '../api/responses.js';
import { idempotencyKeyOf } from '../api/idempotency-key.js';
import { route, type ApiRoute } from '../api/route.js';
import type { ServiceClients } from '../clients.js';
import { callerMetadata, callerOf } from '../http/auth.js';
import { PAYMENT_TICKET_SECONDS, paymentTickets } from '../http/payment-tickets.js';
import { guestTryOf, guestTryRoute, imageIdParams } from './guest-try.js';
import { anonymousJson } from './image-bodies.js';
import { CHECKOUT_DEADLINE_MS, callerEmail } from './payments-checkout.js';

const NOT_FOUND = 'Image not found';
// A payment is taken only for a completed image (docs/decisions/0601-billing.md): nothing is charged
// for a result that may still fail, so no paid unlock ever needs a refund for a failed image.
export const STILL_PROCESSING = 'Your image is still being made. You can pay as soon as it is ready.';
export const FAILED_NOTHING_TO_PAY = 'This enhancement failed; there is nothing to pay for.';
const TICKET_REFUSED = 'Not authenticated: the payment link is invalid or has expired; start the unlock again';
const NO_PAYMENT = 'No payment was started for this enhancement.';
const ALREADY_UNLOCKED = 'This image is already unlocked';

/** The refusals of the three ways to pay for a locked image, as lockedImage (below) makes them. */
const lockedImageRefusals = (whoseImage: string) => ({
  404: refusal('NOT_FOUND', NOT_FOUND, whoseImage),
  409: refusal(
    'CONFLICT',
    ALREADY_UNLOCKED,
    `Already unlocked; still being made ('${STILL_PROCESSING}'); or the enhancement failed`,
  ),
});

const idParams = imageIdParams;

export interface PaymentRouteOptions {
  /** The file URL key; payment tickets are signed with a key derived from it. */
  urlKey: Buffer;
}

export function unlockPaymentRoutes(clients: ServiceClients, options: PaymentRouteOptions): ApiRoute[] {
  const tags = ['payments'];
  const billing = () => clients.billing();
  const tickets = paymentTickets(options.urlKey);
  const emailOf = (req: Request) => callerEmail(clients, req);

  /** The caller's locked image, or the refusal a client can act on. */
  const lockedImage = async (userId: string, imageId: string, req?: Request) => {
    const c = clients.image();
    const { image } = await call(c, c.getStatus, { userId, imageId }, req ? { metadata: callerMetadata(req) } : {});
    if (!image) throw new AppError('NOT_FOUND', NOT_FOUND);
    if (image.status === 'failed') throw new AppError('CONFLICT', FAILED_NOTHING_TO_PAY);
    if (image.status !== 'completed') throw new AppError('CONFLICT', STILL_PROCESSING);
    if (!image.isLocked) throw new AppError('CONFLICT', ALREADY_UNLOCKED);
    return image;
  };

  /**
   * The unlock checkout of one of `userId`'s images: refused (as lockedImage refuses) unless the
   * image is completed and locked, then a checkout of the unlock price. Both ways in (the API call
   * and the browser's ticketed navigation) go through here, so they refuse alike.
   */
  const lockedImageCheckout = async (
    userId: string,
    imageId: string,
    how: { returnUrl: string; email: () => Promise<string>; idempotencyKey?: string; req?: Request },
  ) => {
    await lockedImage(userId, imageId, how.req);
    const email = await how.email();
    const b = billing();
    const { checkoutUrl } = await call(
      b,
      b.createImageUnlockCheckout,
      { userId, email, imageId, returnUrl: how.returnUrl, idempotencyKey: how.idempotencyKey ?? '' },
      { deadlineMs: CHECKOUT_DEADLINE_MS },
    );
    return checkoutUrl;
  };

  const guestTry = guestTryOf(clients);

  return [
    route({
      method: 'post',
      path: '/payments/create-anonymous-payment',
      idempotencyKey: true,
      tags,
      access: 'none',
      summary: "A checkout of the unlock price for a guest's try",
      description:
        "The return addresses must be on the product's own origin. The try unlocks when the provider confirms the payment (its webhook), never on the browser's word. Only a finished try is sold.",
      request: {
        body: {
          type: 'application/json',
          limit: 4096,
          schema: z.object({
            enhancement_id: z
              .uuid({ error: 'No enhancement ID found. Please try generating again.' })
              .meta({ description: "The guest's try" }),
            success_url: z
              .string({ error: 'success_url is required' })
              .min(1, { error: 'success_url is required' })
              .max(2048, { error: 'success_url is at most 2048 characters' }),
            cancel_url: z
              .string({ error: 'cancel_url is required' })
              .min(1, { error: 'cancel_url is required' })
              .max(2048, { error: 'cancel_url is at most 2048 characters' }),
          }),
        },
      },
      responses: {
        200: { description: 'The checkout page', schema: z.object({ checkout_url: z.string() }) },
        404: refusal('NOT_FOUND', NOT_FOUND, "No guest's try with this id"),
        409: refusal(
          'CONFLICT',
          STILL_PROCESSING,
          "Still being made (pay once it is ready), failed ('This enhancement failed; there is nothing to pay for.'), or already paid or claimed",
        ),
      },
      async handle(req, res, { body }) {
        const idempotencyKey = idempotencyKeyOf(req);
        const guest = await guestTry(body.enhancement_id);
        if (guest.status === 'failed') throw new AppError('CONFLICT', FAILED_NOTHING_TO_PAY);
        if (guest.isPaid) throw new AppError('CONFLICT', 'This enhancement is already unlocked');
        // Only a finished result is sold: one still processing may yet fail.
        if (guest.status === 'processing') throw new AppError('CONFLICT', STILL_PROCESSING);
        const b = billing();
        const { checkoutUrl } = await call(
          b,
          b.createAnonymousPayment,
          {
            enhancementId: body.enhancement_id,
            successUrl: body.success_url,
            cancelUrl: body.cancel_url,
            email: '',
            idempotencyKey,
          },
          { deadlineMs: CHECKOUT_DEADLINE_MS },
        );
        res.json({ checkout_url: checkoutUrl });
      },
    }),

    guestTryRoute(clients, {
      path: '/payments/anonymous-enhancement/:id',
      tags,
      summary: "A guest's try and whether it is paid (processed_url is the full result once it is)",
    }),

    route({
      method: 'post',
      path: '/payments/unlock-anonymous-enhancement/:id',
      tags,
      access: 'none',
      summary: "The full result of a guest's paid try",
      description:
        'Answers at once: 200 once the payment provider has confirmed the payment to billing (its webhook) and the image service has unlocked the try; 202 while a started payment is not confirmed yet (the webhook can land after the browser returns) or is confirmed and still being unlocked. The client asks again, with back-off, while it is 202 (docs/decisions/0107-guest-unlock-confirmation.md).',
      request: { params: idParams },
      responses: {
        200: {
          description: 'Paid and unlocked',
          schema: z.object({ success: z.literal(true), processed_url: z.string().nullable() }),
        },
        202: {
          description: 'Not unlocked yet: ask again in a moment',
          schema: z.object({
            success: z.literal(false),
            status: z.enum(['pending_payment', 'unlocking']).meta({
              description:
                'pending_payment: a checkout was started, its confirmation has not arrived; unlocking: confirmed, the image service is unlocking it',
            }),
            processed_url: z.null(),
          }),
        },
        404: refusal('NOT_FOUND', NOT_FOUND, "No guest's try with this id"),
        409: refusal('CONFLICT', NO_PAYMENT, 'No checkout was ever started for this try'),
      },
      async handle(_req, res, { params }) {
        const guest = await guestTry(params.id);
        if (!guest.isPaid) {
          const b = billing();
          const payment = await call(b, b.getAnonymousPayment, { enhancementId: params.id });
          if (payment.status === 'none') throw new AppError('CONFLICT', NO_PAYMENT);
          // No waiting here (a request held open per returning guest): the browser waits and asks again.
          res.status(202).json({
            success: false,
            status: payment.isPaid ? 'unlocking' : 'pending_payment',
            processed_url: null,
          });
          return;
        }
        res.json({ success: true, processed_url: anonymousJson(guest).processed_url });
      },
    }),

    route({
      method: 'post',
      path: '/images/unlock/:id',
      idempotencyKey: true,
      tags: ['images'],
      access: 'user',
      summary: 'A checkout of the unlock price for one of the caller\u2019s locked images',
      description:
        'The server picks the return addresses: /dashboard?unlock_success=true&image_id={id}, and /dashboard?unlock_cancelled=true. The image unlocks when the provider confirms the payment.',
      request: { params: idParams },
      responses: {
        200: {
          description: 'The checkout page',
          schema: z.object({ checkout_url: z.string() }),
        },
        ...lockedImageRefusals("No such image, or not the caller's"),
      },
      async handle(req, res, { params }) {
        const checkoutUrl = await lockedImageCheckout(callerOf(req).userId, params.id, {
          returnUrl: '',
          email: () => emailOf(req),
          idempotencyKey: idempotencyKeyOf(req),
          req,
        });
        res.json({ checkout_url: checkoutUrl });
      },
    }),

    route({
      method: 'post',
      path: '/payments/locked-image-ticket/:id',
      tags,
      access: 'user',
      summary: 'A short-lived ticket to open GET /payments/create-locked-image-payment with',
      description:
        'That address is a browser navigation, which cannot carry the bearer header; the ticket names the caller and this image and lasts five minutes.',
      request: { params: idParams },
      responses: {
        200: {
          description: 'The ticket, and the address to send the browser to',
          schema: z.object({
            ticket: z.string(),
            expires_in: z.number().int().meta({ description: 'Seconds' }),
            payment_url: z.string().meta({ description: '/api/payments/create-locked-image-payment?ticket=…' }),
          }),
        },
        ...lockedImageRefusals("No such image, or not the caller's"),
      },
      async handle(req, res, { params }) {
        const { userId } = callerOf(req);
        await lockedImage(userId, params.id, req);
        const ticket = tickets.issue({ userId, imageId: params.id });
        res.json({
          ticket,
          expires_in: PAYMENT_TICKET_SECONDS,
          payment_url: `/api/payments/create-locked-image-payment?ticket=${encodeURIComponent(ticket)}`,
        });
      },
    }),

    route({
      method: 'get',
      path: '/payments/create-locked-image-payment',
      tags,
      access: 'none',
      summary: 'Browser navigation to the checkout of a locked image (303), opened with a ticket',
      description:
        'The ticket comes from POST /payments/locked-image-ticket/{id} (never an access token in a URL). return_url, on the product\u2019s own origin (a path is read against it), is where the browser comes back to, with unlock_success=true&image_id or unlock_cancelled=true added.',
      request: {
        query: z.object({
          // No declared maximum: a query past Node's header limit is refused before any route (431).
          ticket: z.string({ error: 'ticket is required' }).min(1, { error: 'ticket is required' }),
          return_url: z.string({ error: 'return_url must be text' }).optional(),
        }),
      },
      responses: {
        303: {
          description: 'To the checkout page',
          headers: z.object({ Location: z.string().meta({ description: 'The checkout page' }) }),
        },
        401: refusal('UNAUTHENTICATED', TICKET_REFUSED, 'No, a forged or an expired ticket'),
        ...lockedImageRefusals("No such image, or not the ticket holder's"),
      },
      async handle(_req, res, { query }) {
        const ticket = tickets.check(query.ticket);
        if (!ticket) throw new AppError('UNAUTHENTICATED', TICKET_REFUSED);
        const url = await lockedImageCheckout(ticket.userId, ticket.imageId, {
          returnUrl: query.return_url ?? '',
          email: async () => {
            const c = clients.identity();
            return (await call(c, c.getProfile, { userId: ticket.userId })).user?.email ?? '';
          },
        });
        res.redirect(303, url);
      },
    }),
  ];
}
