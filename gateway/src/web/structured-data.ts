// The schema.org Product a search engine reads on the home and pricing pages (ADR 0714): Flatlay
// with one Offer per token pack and per priced plan period, from billing's catalogue as
// /api/payments/products answers it, so the prices are the ones a checkout charges.
import type { z } from 'zod';
import type { ProductsBody } from '../routes/payments-catalogue.js';

export type ProductsAnswer = z.infer<typeof ProductsBody>;

/** Minor units to schema.org's decimal text (the catalogue's amounts are cents). */
const price = (amount: number) => (amount / 100).toFixed(2);

const PERIOD_UNIT = { monthly: 'MON', yearly: 'ANN' } as const;

export function productStructuredData(products: ProductsAnswer, origin: string): object {
  const url = `${origin}/pricing`;
  const packs = products.token_packs.map((pack) => ({
    '@type': 'Offer',
    name: `${pack.name} token pack: ${pack.tokens} tokens`,
    description: pack.description,
    price: price(pack.amount),
    priceCurrency: pack.currency.toUpperCase(),
    availability: 'https://schema.org/InStock',
    url,
  }));
  const plans = products.subscriptions.flatMap((plan) =>
    (['monthly', 'yearly'] as const).flatMap((period) => {
      const p = plan.pricing[period];
      // The free plan has no price id: nothing is sold, it comes with every account.
      if (!p.price_id) return [];
      return [
        {
          '@type': 'Offer',
          name: `${plan.name} plan, ${period}`,
          description: plan.description,
          price: price(p.amount),
          priceCurrency: p.currency.toUpperCase(),
          availability: 'https://schema.org/InStock',
          url,
          priceSpecification: {
            '@type': 'UnitPriceSpecification',
            price: price(p.amount),
            priceCurrency: p.currency.toUpperCase(),
            referenceQuantity: { '@type': 'QuantitativeValue', value: 1, unitCode: PERIOD_UNIT[period] },
          },
        },
      ];
    }),
  );
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: 'Flatlay',
    description: 'AI that turns casual photos of clothing, accessories, shoes and details into studio flat-lay images.',
    brand: { '@type': 'Brand', name: 'Flatlay' },
    url,
    offers: [...packs, ...plans],
  };
}

/** A JSON-LD block for an HTML page: `<` escaped, so no text of the catalogue can close the element. */
export function jsonLdScript(data: object): string {
  return `<script type="application/ld+json">${JSON.stringify(data).replace(/</g, '\\u003c')}</script>`;
}
