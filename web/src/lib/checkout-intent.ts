import type { CheckoutProductType } from '../api/endpoints';

/** A purchase someone started while signed out; it rides in the /auth query and resumes after sign-in. */
export interface CheckoutIntent {
  checkout_type: CheckoutProductType;
  price_id: string;
  product_name: string;
  /** Minor units, as the products answer gives it. */
  amount: string;
  billing_cycle?: 'monthly' | 'yearly';
}

export function authPathForIntent(intent: CheckoutIntent): string {
  const query = new URLSearchParams({ redirect: 'checkout', ...intent });
  return `/auth?${query.toString()}`;
}

/** The intent in a query, when all of checkout_type, price_id, product_name and amount are there. */
export function intentFromQuery(query: URLSearchParams): CheckoutIntent | null {
  const type = query.get('checkout_type');
  const price = query.get('price_id');
  const name = query.get('product_name');
  const amount = query.get('amount');
  if (!type || !price || !name || !amount) return null;
  if (type !== 'subscription' && type !== 'payment') return null;
  const cycle = query.get('billing_cycle');
  return {
    checkout_type: type,
    price_id: price,
    product_name: name,
    amount,
    ...(cycle === 'monthly' || cycle === 'yearly' ? { billing_cycle: cycle } : {}),
  };
}
