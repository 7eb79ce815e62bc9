// /api/payments/create-checkout-session and /api/checkout/session: a checkout of a token pack or
// a plan. The specification has both paths; they take different bodies and share one handler.
// Billing picks every return address (on the product's own origin).
import type { Request } from 'express';
import { z } from 'zod';
import { AppError, call } from '@flatlay/platform';
import { refusal } from '../api/responses.js';
import { idempotencyKeyOf } from '../api/idempotency-key.js';
import { route, type ApiRoute } from '../api/route.js';
import type { ServiceClients } from '../clients.js';
import { callerMetadata, callerOf } from '../http/auth.js';

export const PRODUCT_NOT_AVAILABLE = 'Product not available. Please refresh and try again.';
export const INVALID_PLAN = 'Invalid Plan';
/** Starting a checkout may create the provider's customer first: more than a plain read. */
export const CHECKOUT_DEADLINE_MS = 15_000;

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

/** The caller's e-mail address, given to the payment provider when billing creates the customer. */
export async function callerEmail(clients: ServiceClients, req: Request): Promise<string> {
  const c = clients.identity();
  const { user } = await call(c, c.getProfile, { userId: callerOf(req).userId }, { metadata: callerMetadata(req) });
  return user?.email ?? '';
}

/** What both checkout paths ask for, once their bodies are read. */
interface CheckoutRequest {
  priceId?: string | undefined;
  plan?: string | undefined;
  productType?: string | undefined;
  promoCode?: string | undefined;
}

export function checkoutRoutes(clients: ServiceClients): ApiRoute[] {
  const tags = ['payments'];
  const billing = () => clients.billing();

  /** The one handler of both paths: billing makes the checkout and answers its page. */
  const startCheckout = async (req: Request, r: CheckoutRequest) => {
    const b = billing();
    const { url } = await call(
      b,
      b.createCheckoutSession,
      {
        userId: callerOf(req).userId,
        email: await callerEmail(clients, req),
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

  return [
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
          schema: z
            .object({
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
            })
            // A checkout names what it sells: a price id or a plan. Refused here with the words
            // billing gives an unknown price; a subscription without a plan is the handler's (Invalid Plan).
            .refine((b) => b.price_id !== undefined || b.plan !== undefined || b.type === 'subscription', {
              error: PRODUCT_NOT_AVAILABLE,
            })
            .meta({
              anyOf: [
                { type: 'object', properties: { price_id: { type: 'string' } }, required: ['price_id'] },
                { type: 'object', properties: { plan: { type: 'string' } }, required: ['plan'] },
              ],
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
  ];
}
