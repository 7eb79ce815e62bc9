// The Purchase pixel with the amount charged. A checkout leaves for the payment provider's page
// and comes back to /dashboard?payment=success (token packs and plans) or to /?payment=success&
// enhancement_id= (a guest's unlock); what was bought is remembered in session storage when the
// checkout starts (the same tab comes back), and its price is read from the catalogue
// (GET /api/payments/products) on the way back. A promotion code entered on the provider's page
// is not known here: the list price is sent.
import { fetchProducts } from '../api/endpoints';
import { trackPixel } from './pixels';

/** What a checkout was for: a price id (packs and plans) or a plan key's parts (the subscribe pages). */
export type CheckoutRef = { priceId: string } | { plan: string; period: 'monthly' | 'yearly' };

type Price = { price_id: string | null; amount: number; currency: string };
export interface Catalogue {
  subscriptions: { id: string; name: string; pricing: { monthly: Price; yearly: Price } }[];
  token_packs: { name: string; price_id: string; amount: number; currency: string }[];
  unlock: { name: string; amount: number; currency: string };
}

export interface PurchaseData {
  value: number;
  currency: string;
  content_name: string;
}

const PENDING_KEY = 'pending_purchase';
const TRACKED_UNLOCKS_KEY = 'tracked_unlocks';

const purchase = (amountCents: number, currency: string, name: string): PurchaseData => ({
  value: amountCents / 100,
  currency: currency.toUpperCase(),
  content_name: name,
});

/** The price of what a checkout was for, as the catalogue lists it; null when it is not there. */
export function purchaseOf(catalogue: Catalogue, ref: CheckoutRef): PurchaseData | null {
  if ('priceId' in ref) {
    const pack = catalogue.token_packs.find((p) => p.price_id === ref.priceId);
    if (pack) return purchase(pack.amount, pack.currency, pack.name);
    for (const s of catalogue.subscriptions)
      for (const price of [s.pricing.monthly, s.pricing.yearly])
        if (price.price_id === ref.priceId) return purchase(price.amount, price.currency, s.name);
    return null;
  }
  const plan = catalogue.subscriptions.find((s) => s.id === ref.plan);
  const price = plan?.pricing[ref.period];
  return plan && price ? purchase(price.amount, price.currency, plan.name) : null;
}

/** Called as a checkout starts: what it is for waits for the return. */
export function rememberCheckout(ref: CheckoutRef): void {
  try {
    sessionStorage.setItem(PENDING_KEY, JSON.stringify(ref));
  } catch {
    // storage blocked: the purchase is not tracked
  }
}

function takePendingCheckout(): CheckoutRef | null {
  try {
    const raw = sessionStorage.getItem(PENDING_KEY);
    sessionStorage.removeItem(PENDING_KEY);
    const ref = raw ? (JSON.parse(raw) as Partial<{ priceId: unknown; plan: unknown; period: unknown }>) : null;
    if (typeof ref?.priceId === 'string') return { priceId: ref.priceId };
    if (typeof ref?.plan === 'string' && (ref.period === 'monthly' || ref.period === 'yearly'))
      return { plan: ref.plan, period: ref.period };
  } catch {
    // unreadable: nothing to track
  }
  return null;
}

/** Back from a paid checkout of a pack or a plan: the Purchase event, once, with its price. */
export async function trackCheckoutReturn(catalogue: () => Promise<Catalogue> = fetchProducts): Promise<void> {
  const ref = takePendingCheckout();
  if (!ref) return;
  try {
    const data = purchaseOf(await catalogue(), ref);
    if (data) trackPixel('Purchase', data);
  } catch {
    // the catalogue did not answer: the purchase goes untracked rather than with a guessed amount
  }
}

/** A guest's paid unlock, confirmed: the Purchase event with the unlock's price, once per try. */
export async function trackGuestUnlock(
  enhancementId: string,
  catalogue: () => Promise<Catalogue> = fetchProducts,
): Promise<void> {
  let tracked: string[] = [];
  try {
    tracked = JSON.parse(localStorage.getItem(TRACKED_UNLOCKS_KEY) ?? '[]') as string[];
  } catch {
    tracked = [];
  }
  // The link to a paid result opens it again later: that is not another purchase.
  if (!Array.isArray(tracked) || tracked.includes(enhancementId)) return;
  try {
    localStorage.setItem(TRACKED_UNLOCKS_KEY, JSON.stringify([...tracked, enhancementId].slice(-20)));
  } catch {
    // storage blocked: tracked at most once per page anyway
  }
  try {
    const { unlock } = await catalogue();
    trackPixel('Purchase', purchase(unlock.amount, unlock.currency, 'anonymous_unlock'));
  } catch {
    // the catalogue did not answer: untracked rather than a guessed amount
  }
}
