// /api/payments/products and /api/stripe/config: what can be bought and the payment provider's
// publishable key, as billing answers them.
import { z } from 'zod';
import { call } from '@flatlay/platform';
import { toApi } from '../api/api-view.js';
import { refusal } from '../api/responses.js';
import { route, type ApiRoute } from '../api/route.js';
import type { ServiceClients } from '../clients.js';

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

export const notConfigured = refusal(
  'NOT_CONFIGURED',
  'Payment System Not Configured',
  'This deployment takes no payments (never 503: the web app would sign the person out)',
);

/** The catalogue as /api/payments/products answers it (the public pages' offers read it too). */
export async function productsAnswer(clients: ServiceClients): Promise<z.infer<typeof ProductsBody>> {
  const b = clients.billing();
  return toApi(ProductsBody, await call(b, b.listProducts, {}));
}

export function catalogueRoutes(clients: ServiceClients): ApiRoute[] {
  const tags = ['payments'];
  const billing = () => clients.billing();
  return [
    route({
      method: 'get',
      path: '/payments/products',
      tags,
      access: 'none',
      summary: 'Plans, token packs and the unlock price, as the pricing pages show them',
      responses: { 200: { description: 'The catalogue', schema: ProductsBody } },
      async handle(_req, res) {
        res.json(await productsAnswer(clients));
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
  ];
}
