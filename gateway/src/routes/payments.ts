// /api/payments, /api/checkout and /api/stripe: the catalogue, checkouts of packs and plans, a
// guest's $5 unlock and a signed-in user's unlock by payment, all answered by the billing service.
// Billing picks every return address (on the product's own origin); the gateway checks who asks.
import type { Request } from 'express';
import { z } from 'zod';
import { AppError, call } from '@flatlay/platform';
import { refusal } from '../api/responses.js';
import { idempotencyKeyOf } from '../api/idempotency-key.js';
import { route, type ApiRoute } from '../api/route.js';
import type { ServiceClients } from '../clients.js';
import { callerMetadata, callerOf } from '../http/auth.js';
import { PAYMENT_TICKET_SECONDS, paymentTickets } from '../http/payment-tickets.js';
import { AnonymousStatusBody, anonymousJson } from './image-bodies.js';

export const PRODUCT_NOT_AVAILABLE = 'Product not available. Please refresh and try again.';
export const INVALID_PLAN = 'Invalid Plan';
const NOT_FOUND = 'Image not found';
// A payment is taken only for a completed image (docs/decisions/0601-billing.md): nothing is charged
// for a result that may still fail, so no paid unlock ever needs a refund for a failed image.
export const STILL_PROCESSING = 'Your image is still being made. You can pay as soon as it is ready.';
export const FAILED_NOTHING_TO_PAY = 'This enhancement failed; there is nothing to pay for.';
const TICKET_REFUSED = 'Not authenticated: the payment link is invalid or has expired; start the unlock again';
/** Starting a checkout may create the provider's customer first: more than a plain read. */
const CHECKOUT_DEADLINE_MS = 15_000;
/** How long an unlock call waits for the image service to act on a confirmed payment. */
const UNLOCK_WAIT_MS = 5_000;

const idParams = z.object({
  id: z.uuid({ error: 'id must be an image id (a UUID)' }).meta({ description: 'The image (or enhancement) id' }),
});

const Price = z
  .object({
    price_id: z.string().nullable(),
    amount: z.number().int().meta({ description: 'Cents' }),
    currency: z.string(),
    display_price: z.string(),
    savings: z.string().nullable().meta({ description: 'Against twelve months of the monthly price (yearly only)' }),
  })
  .loose();

export const ProductsBody = z
  .object({
    subscriptions: z.array(
      z
        .object({
          id: z.string(),
          name: z.string(),
          description: z.string(),
          features: z.array(z.string()),
          tokens_per_month: z.number().int(),
          pricing: z.object({ monthly: Price, yearly: Price }),
        })
        .loose(),
    ),
    token_packs: z.array(
      z
        .object({
          id: z.string(),
          name: z.string(),
          description: z.string(),
          tokens: z.number().int(),
          amount: z.number().int().meta({ description: 'Cents' }),
          currency: z.string(),
          display_price: z.string(),
          price_id: z.string(),
          per_image_cost: z.number().meta({ description: 'Dollars per image (100 tokens)' }),
          product_type: z.literal('payment'),
        })
        .loose(),
    ),
    unlock: z
      .object({ name: z.string(), amount: z.number().int(), currency: z.string(), display_price: z.string() })
      .loose()
      .meta({ description: 'What one unlock by payment (signed-in or guest) is charged' }),
  })
  .loose()
  .meta({ id: 'Products' });

const productType = z
  .enum(['payment', 'subscription'], { error: 'product_type must be payment or subscription' })
  .optional();
const promoCode = z
  .string({ error: 'promo_code must be text' })
  .max(64, { error: 'promo_code is at most 64 characters' })
  .optional()
  .meta({ description: 'A promotion code; an unknown one is refused (400)' });
// An empty price id or plan names no product: refused here (400) with the message billing gives
// an unknown one, so the document's minLength says what the server accepts.
const priceId = z
  .string({ error: PRODUCT_NOT_AVAILABLE })
  .min(1, { error: PRODUCT_NOT_AVAILABLE })
  .max(200, { error: PRODUCT_NOT_AVAILABLE })
  .meta({ description: 'A price id from GET /payments/products' });

const CheckoutUrl = z.object({ url: z.string().meta({ description: 'Where to send the browser: the checkout page' }) });

const checkoutRefusals = {
  400: refusal(
    'INVALID_ARGUMENT',
    PRODUCT_NOT_AVAILABLE,
    "An unknown price id ('Product not available. Please refresh and try again.'), an unknown plan ('Invalid Plan'), an unknown promo code, or a malformed body",
  ),
  409: refusal(
    'CONFLICT',
    'You already have a subscription. Change or cancel it from your account page.',
    'A plan checkout while a subscription is live',
  ),
};

const notConfigured = refusal(
  'NOT_CONFIGURED',
  'Payment System Not Configured',
  'This deployment takes no payments (never 503: the web app would sign the person out)',
);

export interface PaymentRouteOptions {
  /** The file URL key; payment tickets are signed with a key derived from it. */
  urlKey: Buffer;
}

export function paymentRoutes(clients: ServiceClients, options: PaymentRouteOptions): ApiRoute[] {
  const tags = ['payments'];
  const billing = () => clients.billing();
  const tickets = paymentTickets(options.urlKey);

  /** The caller's e-mail address, given to the payment provider when billing creates the customer. */
  const emailOf = async (req: Request) => {
    const c = clients.identity();
    const { user } = await call(c, c.getProfile, { userId: callerOf(req).userId }, { metadata: callerMetadata(req) });
    return user?.email ?? '';
  };

  const startCheckout = async (
    req: Request,
    r: {
      priceId?: string | undefined;
      plan?: string | undefined;
      productType?: string | undefined;
      promoCode?: string | undefined;
    },
  ) => {
    const b = billing();
    const { url } = await call(
      b,
      b.createCheckoutSession,
      {
        userId: callerOf(req).userId,
        email: await emailOf(req),
        priceId: r.priceId ?? '',
        plan: r.plan ?? '',
        productType: r.productType ?? '',
        promoCode: r.promoCode ?? '',
        idempotencyKey: idempotencyKeyOf(req),
      },
      { metadata: callerMetadata(req), deadlineMs: CHECKOUT_DEADLINE_MS },
    );
    return { url };
  };

  /** The caller's locked image, or the refusal a client can act on. */
  const lockedImage = async (userId: string, imageId: string, req?: Request) => {
    const c = clients.image();
    const { image } = await call(c, c.getStatus, { userId, imageId }, req ? { metadata: callerMetadata(req) } : {});
    if (!image) throw new AppError('NOT_FOUND', NOT_FOUND);
    if (image.status === 'failed') throw new AppError('CONFLICT', FAILED_NOTHING_TO_PAY);
    if (image.status !== 'completed') throw new AppError('CONFLICT', STILL_PROCESSING);
    if (!image.isLocked) throw new AppError('CONFLICT', 'This image is already unlocked');
    return image;
  };

  const imageUnlockCheckout = async (
    userId: string,
    imageId: string,
    returnUrl: string,
    email: string,
    idempotencyKey = '',
  ) => {
    const b = billing();
    const { checkoutUrl } = await call(
      b,
      b.createImageUnlockCheckout,
      { userId, email, imageId, returnUrl, idempotencyKey },
      { deadlineMs: CHECKOUT_DEADLINE_MS },
    );
    return checkoutUrl;
  };

  const guestTry = async (enhancementId: string) => {
    const c = clients.image();
    return call(c, c.getAnonymousStatus, { enhancementId });
  };

  return [
    route({
      method: 'get',
      path: '/payments/products',
      tags,
      access: 'none',
      summary: 'Plans, token packs and the unlock price, as the pricing pages show them',
      responses: { 200: { description: 'The catalogue', schema: ProductsBody } },
      async handle(_req, res) {
        const b = billing();
        const { productsJson } = await call(b, b.listProducts, {});
        res.json(JSON.parse(productsJson));
      },
    }),

    route({
      method: 'get',
      path: '/stripe/config',
      tags,
      access: 'none',
      summary: "The payment provider's publishable key (a local one, pk_local_…, without Stripe)",
      responses: {
        200: {
          description: 'The key',
          schema: z.object({ publishableKey: z.string(), provider: z.enum(['stripe', 'local']) }),
          example: { publishableKey: 'pk_local_flatlay', provider: 'local' },
        },
        501: notConfigured,
      },
      async handle(_req, res) {
        const b = billing();
        const config = await call(b, b.getStripeConfig, {});
        res.json({
          publishableKey: config.publishableKey,
          provider: config.provider === 'stripe' ? 'stripe' : 'local',
        });
      },
    }),

    route({
      method: 'post',
      path: '/payments/create-checkout-session',
      idempotencyKey: true,
      tags,
      access: 'user',
      summary: 'A checkout of a token pack or a plan, by price id',
      description:
        'The server chooses the return addresses: /dashboard?payment=success, and back to /pricing on cancel. Without a promo code the buyer may still enter one on the checkout page.',
      request: {
        body: {
          type: 'application/json',
          limit: 4096,
          schema: z.object({ price_id: priceId, product_type: productType, promo_code: promoCode }),
        },
      },
      responses: { 200: { description: 'The checkout page', schema: CheckoutUrl }, ...checkoutRefusals },
      async handle(req, res, { body }) {
        res.json(
          await startCheckout(req, {
            priceId: body.price_id,
            productType: body.product_type,
            promoCode: body.promo_code,
          }),
        );
      },
    }),

    route({
      method: 'post',
      path: '/checkout/session',
      idempotencyKey: true,
      tags,
      access: 'user',
      summary: 'A checkout by price id and product type, or of a plan by its key (studio_monthly)',
      request: {
        body: {
          type: 'application/json',
          limit: 4096,
          schema: z.object({
            price_id: priceId.optional(),
            product_type: productType,
            type: z
              .enum(['subscription', 'payment'], { error: 'type must be subscription or payment' })
              .optional()
              .meta({ description: 'subscription, with plan' }),
            plan: z
              .string({ error: INVALID_PLAN })
              .min(1, { error: INVALID_PLAN })
              .max(64, { error: INVALID_PLAN })
              .optional()
              .meta({ description: 'lite_monthly, lite_yearly, studio_monthly or studio_yearly' }),
            promo_code: promoCode,
          }),
        },
      },
      responses: { 200: { description: 'The checkout page', schema: CheckoutUrl }, ...checkoutRefusals },
      async handle(req, res, { body }) {
        // {type: 'subscription', plan}: a plan key; otherwise a price id and its product type.
        if (body.type === 'subscription' || body.plan !== undefined) {
          if (!body.plan) throw new AppError('INVALID_ARGUMENT', INVALID_PLAN);
          res.json(
            await startCheckout(req, { plan: body.plan, productType: 'subscription', promoCode: body.promo_code }),
          );
          return;
        }
        res.json(
          await startCheckout(req, {
            priceId: body.price_id,
            productType: body.product_type ?? body.type,
            promoCode: body.promo_code,
          }),
        );
      },
    }),

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

    route({
      method: 'get',
      path: '/payments/anonymous-enhancement/:id',
      tags,
      access: 'none',
      summary: "A guest's try and whether it is paid (processed_url is the full result once it is)",
      request: { params: idParams },
      responses: {
        200: { description: 'The enhancement', schema: AnonymousStatusBody },
        404: refusal('NOT_FOUND', NOT_FOUND, "No guest's try with this id"),
      },
      async handle(_req, res, { params }) {
        res.json(anonymousJson(await guestTry(params.id)));
      },
    }),

    route({
      method: 'post',
      path: '/payments/unlock-anonymous-enhancement/:id',
      tags,
      access: 'none',
      summary: "The full result of a guest's paid try",
      description:
        'Succeeds only once the payment provider has confirmed the payment to billing (its webhook) and the image service has unlocked the try; on return from checkout the confirmation may still be on its way (409: try again in a moment).',
      request: { params: idParams },
      responses: {
        200: {
          description: 'Paid and unlocked',
          schema: z.object({ success: z.literal(true), processed_url: z.string().nullable() }),
        },
        404: refusal('NOT_FOUND', NOT_FOUND, "No guest's try with this id"),
        409: refusal(
          'CONFLICT',
          'Payment for this enhancement has not been confirmed yet.',
          'No confirmed payment yet, or confirmed and still being unlocked (try again in a moment)',
        ),
      },
      async handle(_req, res, { params }) {
        let guest = await guestTry(params.id);
        if (!guest.isPaid) {
          const b = billing();
          const payment = await call(b, b.getAnonymousPayment, { enhancementId: params.id });
          if (!payment.isPaid)
            throw new AppError('CONFLICT', 'Payment for this enhancement has not been confirmed yet.');
          // Billing has the provider's confirmation; its event is on the way to the image service.
          const until = Date.now() + UNLOCK_WAIT_MS;
          while (!guest.isPaid && Date.now() < until) {
            await new Promise((ok) => setTimeout(ok, 250));
            guest = await guestTry(params.id);
          }
          if (!guest.isPaid)
            throw new AppError(
              'CONFLICT',
              'Your payment is confirmed; the image is being unlocked. Please try again in a moment.',
            );
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
        404: refusal('NOT_FOUND', NOT_FOUND, "No such image, or not the caller's"),
        409: refusal(
          'CONFLICT',
          'This image is already unlocked',
          `Already unlocked; still being made ('${STILL_PROCESSING}'); or the enhancement failed`,
        ),
      },
      async handle(req, res, { params }) {
        const { userId } = callerOf(req);
        const idempotencyKey = idempotencyKeyOf(req);
        await lockedImage(userId, params.id, req);
        res.json({
          checkout_url: await imageUnlockCheckout(userId, params.id, '', await emailOf(req), idempotencyKey),
        });
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
        404: refusal('NOT_FOUND', NOT_FOUND, "No such image, or not the caller's"),
        409: refusal(
          'CONFLICT',
          'This image is already unlocked',
          `Already unlocked; still being made ('${STILL_PROCESSING}'); or the enhancement failed`,
        ),
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
        404: refusal('NOT_FOUND', NOT_FOUND, "No such image, or not the ticket holder's"),
        409: refusal(
          'CONFLICT',
          'This image is already unlocked',
          `Already unlocked; still being made ('${STILL_PROCESSING}'); or the enhancement failed`,
        ),
      },
      async handle(_req, res, { query }) {
        const ticket = tickets.check(query.ticket);
        if (!ticket) throw new AppError('UNAUTHENTICATED', TICKET_REFUSED);
        await lockedImage(ticket.userId, ticket.imageId);
        const c = clients.identity();
        const { user } = await call(c, c.getProfile, { userId: ticket.userId });
        const url = await imageUnlockCheckout(ticket.userId, ticket.imageId, query.return_url ?? '', user?.email ?? '');
        res.redirect(303, url);
      },
    }),
  ];
}
