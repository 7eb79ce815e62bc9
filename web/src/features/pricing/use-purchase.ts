import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { CheckoutProductType } from '../../api/endpoints';
import { useAuth } from '../../auth/auth-context';
import { errorToast } from '../../components/toast/toast-store';
import { authPathForIntent } from '../../lib/checkout-intent';
import { goToCheckout } from './checkout';
import { trackPixel } from '../../lib/pixels';

export interface Purchase {
  id: string;
  priceId: string | null | undefined;
  productType: CheckoutProductType;
  name: string;
  amount: number;
  billingCycle?: 'monthly' | 'yearly';
}

/** Buying from a card: signed out, to /auth with the purchase kept in the query; signed in, to checkout. */
export function usePurchase() {
  const { authUser } = useAuth();
  const navigate = useNavigate();
  const [pendingId, setPendingId] = useState<string | null>(null);

  const buy = async (p: Purchase) => {
    if (!authUser) {
      errorToast(
        'Authentication required',
        p.productType === 'subscription'
          ? 'Please sign in to subscribe to a plan'
          : 'Please sign in to purchase token packs',
      );
      if (p.priceId)
        navigate(
          authPathForIntent({
            checkout_type: p.productType,
            price_id: p.priceId,
            product_name: p.name,
            amount: String(p.amount),
            ...(p.billingCycle ? { billing_cycle: p.billingCycle } : {}),
          }),
        );
      else navigate('/auth');
      return;
    }
    setPendingId(p.id);
    trackPixel('InitiateCheckout', { value: p.amount / 100, currency: 'USD', content_name: p.name });
    const left = await goToCheckout(p.priceId, p.productType);
    if (!left) setPendingId(null);
  };

  return { buy, pendingId };
}
