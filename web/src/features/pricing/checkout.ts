import { type CheckoutProductType, createCheckoutSession } from '../../api/endpoints';
import { errorToast } from '../../components/toast/toast-store';
import { navigateAway } from '../../lib/navigate-away';
import { rememberCheckout } from '../../lib/purchase-tracking';

export const PRODUCT_NOT_AVAILABLE = 'Product not available. Please refresh and try again.';
export const CHECKOUT_FALLBACK = 'Failed to create checkout session. Please try again.';

/** Creates a hosted checkout session and sends the browser there; false when it could not. */
export async function goToCheckout(
  priceId: string | null | undefined,
  productType: CheckoutProductType,
  promoCode?: string,
): Promise<boolean> {
  if (!priceId) {
    errorToast('Checkout Error', PRODUCT_NOT_AVAILABLE);
    return false;
  }
  try {
    const answer = await createCheckoutSession({
      price_id: priceId,
      product_type: productType,
      ...(promoCode ? { promo_code: promoCode } : {}),
    });
    if (!answer?.url) throw new Error(CHECKOUT_FALLBACK);
    rememberCheckout({ priceId });
    navigateAway(answer.url);
    return true;
  } catch (error) {
    errorToast('Checkout Failed', error instanceof Error && error.message ? error.message : CHECKOUT_FALLBACK);
    return false;
  }
}
