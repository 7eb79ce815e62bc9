// Starting checkouts: token packs and plans for signed-in users, unlocks for users and guests.
// Return addresses are chosen here, on the product's own origin, never taken from a client as is.
import { createHash } from 'node:crypto';
import { AppError, type Pool } from '@flatlay/platform';
import type { Catalogue, Product } from './catalogue.js';
import type { CheckoutRequest, PaymentProvider } from '../adapters/payment-provider.js';
import * as records from '../adapters/billing-records.js';

const PRODUCT_NOT_AVAILABLE = 'Product not available. Please refresh and try again.';

export interface CheckoutDeps {
  pool: Pool;
  catalogue: Catalogue;
  provider: PaymentProvider;
  /** The product's public address, e.g. https://flatlay.example. */
  publicBaseUrl: string;
  /** Other origins the product is reached at, where a client's return addresses may be too. */
  returnOrigins?: string[];
}

export interface StartCheckout {
  userId: string;
  email?: string;
  priceId?: string;
  plan?: string;
  productType?: string;
  promoCode?: string;
  /** The caller's Idempotency-Key; empty or undefined: none. */
  idempotencyKey?: string;
}

/**
 * The provider's idempotency key of a caller's key: scoped to the caller (a user, or a guest's try)
 * and to the kind of checkout, so two callers' keys never meet.
 */
export function scopedIdempotencyKey(kind: string, caller: string, key: string | undefined): string | undefined {
  // Hashed: Stripe takes keys of at most 255 characters, whatever the caller sent.
  return key ? `checkout:${kind}:${caller}:${createHash('sha256').update(key).digest('base64url')}` : undefined;
}

const required = (value: string | undefined, message: string) => {
  if (!value) throw new AppError('INVALID_ARGUMENT', message);
  return value;
};

export class Checkouts {
  private readonly base: URL;
  private readonly origins: Set<string>;

  constructor(private readonly deps: CheckoutDeps) {
    this.base = new URL(deps.publicBaseUrl);
    this.origins = new Set([this.base.origin, ...(deps.returnOrigins ?? []).map((o) => new URL(o).origin)]);
  }

  private url(path: string): string {
    return new URL(path, this.base).toString();
  }

  /**
   * A URL on one of the product's own origins (PUBLIC_BASE_URL's, or one in RETURN_URL_ORIGINS),
   * or INVALID_ARGUMENT: checkout never sends a buyer elsewhere.
   */
  private ownUrl(value: string, field: string): URL {
    let url: URL;
    try {
      // A path is read against the product's own address; an absolute address must be on it.
      url = new URL(value, this.base);
    } catch {
      throw new AppError('INVALID_ARGUMENT', `${field} must be an address on this site`);
    }
    if (!this.origins.has(url.origin))
      throw new AppError('INVALID_ARGUMENT', `${field} must be an address on this site`);
    return url;
  }

  /** What a request names: a plan key wins; else a price id of the matching product type. */
  private productOf(r: StartCheckout): Product {
    if (r.plan) {
      const product = this.deps.catalogue.productByPlanKey(r.plan);
      if (!product) throw new AppError('INVALID_ARGUMENT', 'Invalid Plan');
      return product;
    }
    const product = r.priceId ? this.deps.catalogue.productByPriceId(r.priceId) : undefined;
    if (!product) throw new AppError('INVALID_ARGUMENT', PRODUCT_NOT_AVAILABLE);
    const wanted =
      r.productType === 'subscription' ? 'plan' : r.productType === 'payment' ? 'token_pack' : product.kind;
    if (product.kind !== wanted) throw new AppError('INVALID_ARGUMENT', PRODUCT_NOT_AVAILABLE);
    return product;
  }

  private async customerFor(userId: string, email: string | undefined): Promise<string> {
    const known = await records.customerOf(this.deps.pool, userId);
    if (known) return known;
    const created = await this.deps.provider.createCustomer(userId, email);
    return records.rememberCustomer(this.deps.pool, userId, created);
  }

  private async promotion(code: string | undefined): Promise<string | undefined> {
    const trimmed = code?.trim();
    if (!trimmed) return undefined;
    const id = await this.deps.provider.resolvePromotionCode(trimmed);
    if (!id) throw new AppError('INVALID_ARGUMENT', 'This promo code is not valid or has expired.');
    return id;
  }

  private async remember(
    sessionId: string,
    kind: string,
    ids: { userId?: string; enhancementId?: string; imageId?: string },
  ) {
    await this.deps.pool.query(
      `INSERT INTO checkout_sessions (session_id, kind, user_id, enhancement_id, image_id)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
      [sessionId, kind, ids.userId ?? null, ids.enhancementId ?? null, ids.imageId ?? null],
    );
  }

  async startCheckout(r: StartCheckout): Promise<{ url: string; sessionId: string }> {
    const userId = required(r.userId, 'userId is required');
    if (r.productType && r.productType !== 'payment' && r.productType !== 'subscription')
      throw new AppError('INVALID_ARGUMENT', 'product_type must be payment or subscription');
    const product = this.productOf(r);
    if (product.kind === 'plan') {
      const current = await records.currentSubscriptionOf(this.deps.pool, userId);
      if (current && current.status !== 'canceled')
        throw new AppError('CONFLICT', 'You already have a subscription. Change or cancel it from your account page.');
    }
    const promotionCodeId = await this.promotion(r.promoCode);
    const customerId = await this.customerFor(userId, r.email);
    const currency = this.deps.catalogue.currency;
    const request: CheckoutRequest =
      product.kind === 'token_pack'
        ? {
            mode: 'payment',
            line: {
              priceId: product.priceId,
              name: `${product.pack.name} pack`,
              amountCents: product.amount,
              currency,
            },
            metadata: {
              user_id: userId,
              kind: 'token_pack',
              pack_id: product.pack.id,
              pack_name: product.pack.name,
              tokens: String(product.pack.tokens),
              price_id: product.priceId,
            },
            successUrl: '',
            cancelUrl: '',
          }
        : {
            mode: 'subscription',
            line: {
              priceId: product.priceId,
              name: `${product.plan.name} (${product.period})`,
              amountCents: product.amount,
              currency,
            },
            metadata: {
              user_id: userId,
              kind: 'subscription',
              plan: product.plan.id,
              billing_period: product.period,
              price_id: product.priceId,
            },
            subscriptionMetadata: { user_id: userId, plan: product.plan.id, billing_period: product.period },
            successUrl: '',
            cancelUrl: '',
          };
    const idempotencyKey = scopedIdempotencyKey(request.metadata.kind!, userId, r.idempotencyKey);
    const session = await this.deps.provider.createCheckoutSession({
      ...request,
      customerId,
      ...(promotionCodeId ? { promotionCodeId } : {}),
      ...(idempotencyKey ? { idempotencyKey } : {}),
      successUrl: this.url('/dashboard?payment=success'),
      cancelUrl: this.url('/pricing?payment=cancelled'),
    });
    await this.remember(session.id, request.metadata.kind!, { userId });
    return { url: session.url, sessionId: session.id };
  }

  async startAnonymousPayment(r: {
    enhancementId: string;
    successUrl: string;
    cancelUrl: string;
    email?: string;
    idempotencyKey?: string;
  }): Promise<{ url: string; sessionId: string }> {
    const enhancementId = required(r.enhancementId, 'No enhancement ID found. Please try generating again.');
    const idempotencyKey = scopedIdempotencyKey('anonymous_enhancement', enhancementId, r.idempotencyKey);
    const successUrl = this.ownUrl(r.successUrl, 'success_url');
    const cancelUrl = this.ownUrl(r.cancelUrl, 'cancel_url');
    const unlock = this.deps.catalogue.unlock;
    const session = await this.deps.provider.createCheckoutSession({
      mode: 'payment',
      ...(r.email ? { customerEmail: r.email } : {}),
      line: { name: unlock.name, amountCents: unlock.amount, currency: unlock.currency },
      metadata: { kind: 'anonymous_enhancement', enhancement_id: enhancementId },
      successUrl: successUrl.toString(),
      cancelUrl: cancelUrl.toString(),
      ...(idempotencyKey ? { idempotencyKey } : {}),
    });
    await this.remember(session.id, 'anonymous_enhancement', { enhancementId });
    return { url: session.url, sessionId: session.id };
  }

  async startImageUnlock(r: {
    userId: string;
    email?: string;
    imageId: string;
    returnUrl?: string;
    idempotencyKey?: string;
  }): Promise<{ url: string; sessionId: string }> {
    const userId = required(r.userId, 'userId is required');
    const imageId = required(r.imageId, 'image_id is required');
    const back = r.returnUrl ? this.ownUrl(r.returnUrl, 'return_url') : new URL('/dashboard', this.base);
    const success = new URL(back);
    success.searchParams.set('unlock_success', 'true');
    success.searchParams.set('image_id', imageId);
    const cancel = new URL(back);
    cancel.searchParams.set('unlock_cancelled', 'true');
    const unlock = this.deps.catalogue.unlock;
    const session = await this.deps.provider.createCheckoutSession({
      mode: 'payment',
      customerId: await this.customerFor(userId, r.email),
      line: { name: unlock.name, amountCents: unlock.amount, currency: unlock.currency },
      metadata: { kind: 'image_unlock', user_id: userId, image_id: imageId },
      successUrl: success.toString(),
      cancelUrl: cancel.toString(),
      ...(r.idempotencyKey ? { idempotencyKey: scopedIdempotencyKey('image_unlock', userId, r.idempotencyKey) } : {}),
    });
    await this.remember(session.id, 'image_unlock', { userId, imageId });
    return { url: session.url, sessionId: session.id };
  }

  /** Whether a guest's enhancement is paid: paid, pending (a checkout was started) or none. */
  async anonymousPayment(enhancementId: string): Promise<{ isPaid: boolean; status: 'none' | 'pending' | 'paid' }> {
    required(enhancementId, 'enhancement_id is required');
    const { rows } = await this.deps.pool.query(
      `SELECT EXISTS (SELECT 1 FROM payments WHERE enhancement_id = $1 AND kind = 'anonymous_enhancement' AND NOT refunded) AS paid,
              EXISTS (SELECT 1 FROM checkout_sessions WHERE enhancement_id = $1) AS started`,
      [enhancementId],
    );
    const paid = rows[0].paid === true;
    return { isPaid: paid, status: paid ? 'paid' : rows[0].started ? 'pending' : 'none' };
  }
}
