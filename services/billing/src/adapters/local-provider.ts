// The local payment provider: Stripe's part played inside the product, with no keys. Its checkout
// and billing portal are pages the product serves; paying completes the session and delivers
// Stripe-shaped events, signed with the local webhook secret, to the same webhook handler Stripe
// would call. No card is charged, and nothing renews by itself.
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { AppError, withTransaction, type Pool, type Queryable } from '@flatlay/platform';
import type { Catalogue } from '../app/catalogue.js';
import type { CheckoutRequest, PaymentProvider } from './payment-provider.js';
import { signWebhook } from '../app/webhook-signature.js';
import { checkoutPage, notFoundPage, portalPage } from './local-pages.js';

export interface LocalProviderOptions {
  pool: Pool;
  catalogue: Catalogue;
  publicBaseUrl: string;
  webhookSecret: string;
  clock?: () => Date;
}

/** Where signed events go: billing's webhook handler, bound once the service is assembled. */
export type WebhookDelivery = (payload: Uint8Array, signature: string) => Promise<unknown>;

const localId = (prefix: string) => `${prefix}_local_${randomUUID().replaceAll('-', '')}`;
const seconds = (d: Date) => Math.floor(d.getTime() / 1000);
const sameToken = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export function addPeriod(start: Date, period: string): Date {
  const end = new Date(start);
  if (period === 'yearly') end.setUTCFullYear(end.getUTCFullYear() + 1);
  else end.setUTCMonth(end.getUTCMonth() + 1);
  return end;
}

interface SessionRow {
  session_id: string;
  mode: 'payment' | 'subscription';
  status: string;
  customer_id: string;
  customer_email: string;
  price_id: string;
  product_name: string;
  amount_cents: number;
  discount_cents: number;
  currency: string;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  csrf_token: string;
}

interface LocalSubscriptionRow {
  subscription_id: string;
  customer_id: string;
  price_id: string;
  status: string;
  cancel_at_period_end: boolean;
  current_period_start: Date;
  current_period_end: Date;
  metadata: Record<string, string>;
}

export class LocalProvider implements PaymentProvider {
  readonly name = 'local';
  readonly publishableKey = 'pk_local_flatlay';
  readonly webhookSecret: string;
  private deliver: WebhookDelivery | undefined;
  private readonly clock: () => Date;

  constructor(private readonly options: LocalProviderOptions) {
    this.webhookSecret = options.webhookSecret;
    this.clock = options.clock ?? (() => new Date());
  }

  bindWebhooks(deliver: WebhookDelivery): void {
    this.deliver = deliver;
  }

  private url(path: string): string {
    return new URL(path, this.options.publicBaseUrl).toString();
  }

  /** Signs and hands one event to the webhook handler, as Stripe would POST it. */
  private async send(type: string, object: Record<string, unknown>): Promise<void> {
    if (!this.deliver) throw new Error('local provider: no webhook handler bound');
    const payload = JSON.stringify({
      id: localId('evt'),
      object: 'event',
      type,
      created: seconds(this.clock()),
      livemode: false,
      data: { object },
    });
    await this.deliver(Buffer.from(payload), signWebhook(payload, this.webhookSecret));
  }

  async createCustomer(): Promise<string> {
    return localId('cus');
  }

  async resolvePromotionCode(code: string): Promise<string | undefined> {
    const promo = this.options.catalogue.promoCode(code);
    return promo ? `promo_local_${promo.code}` : undefined;
  }

  async createCheckoutSession(r: CheckoutRequest): Promise<{ id: string; url: string }> {
    const id = await this.insertCheckoutSession(r);
    return { id, url: this.url(`/checkout/local/${id}`) };
  }

  /** The new session's id; with an idempotency key already used, that key's session instead (as Stripe). */
  private async insertCheckoutSession(r: CheckoutRequest): Promise<string> {
    const id = localId('cs');
    const promo = r.promotionCodeId?.startsWith('promo_local_')
      ? this.options.catalogue.promoCode(r.promotionCodeId.slice('promo_local_'.length))
      : undefined;
    const discount = promo ? Math.floor((r.line.amountCents * promo.percent_off) / 100) : 0;
    const { rows } = await this.options.pool.query<{ session_id: string }>(
      `WITH made AS (
         INSERT INTO local_checkout_sessions (session_id, mode, customer_id, customer_email, price_id, product_name,
           amount_cents, discount_cents, currency, metadata, success_url, cancel_url, csrf_token, idempotency_key)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, NULLIF($14, ''))
         ON CONFLICT (idempotency_key) DO NOTHING RETURNING session_id)
       SELECT session_id FROM made
       UNION ALL SELECT session_id FROM local_checkout_sessions WHERE $14 <> '' AND idempotency_key = $14`,
      [
        id,
        r.mode,
        r.customerId ?? '',
        r.customerEmail ?? '',
        r.line.priceId ?? '',
        r.line.name,
        r.line.amountCents,
        discount,
        r.line.currency,
        JSON.stringify({
          ...r.metadata,
          ...(r.mode === 'subscription'
            ? { subscription_metadata: JSON.stringify(r.subscriptionMetadata ?? r.metadata) }
            : {}),
        }),
        r.successUrl,
        r.cancelUrl,
        randomBytes(24).toString('base64url'),
        r.idempotencyKey ?? '',
      ],
    );
    if (rows[0]) return rows[0].session_id;
    // Two requests with one key at once: the loser's insert waited for the winner's commit, which
    // this statement's snapshot predates; a new statement sees it.
    const again = await this.options.pool.query<{ session_id: string }>(
      'SELECT session_id FROM local_checkout_sessions WHERE idempotency_key = $1',
      [r.idempotencyKey],
    );
    if (!again.rows[0]) throw new Error('local provider: a checkout session with this idempotency key went missing');
    return again.rows[0].session_id;
  }

  async renderCheckout(sessionId: string): Promise<{ status: number; html: string }> {
    const { rows } = await this.options.pool.query<SessionRow>(
      'SELECT * FROM local_checkout_sessions WHERE session_id = $1',
      [sessionId],
    );
    const s = rows[0];
    if (!s) return { status: 404, html: notFoundPage() };
    return {
      status: 200,
      html: checkoutPage({
        action: `/checkout/local/${encodeURIComponent(s.session_id)}`,
        csrfToken: s.csrf_token,
        productName: s.product_name,
        amountCents: s.amount_cents,
        discountCents: s.discount_cents,
        mode: s.mode,
        interval: s.metadata.billing_period ?? 'monthly',
        status: s.status,
      }),
    };
  }

  /** Pay or Cancel on the checkout page; answers where the browser goes next. */
  async submitCheckout(sessionId: string, action: string, csrfToken: string): Promise<string> {
    return withTransaction(this.options.pool, async (tx) => {
      const { rows } = await tx.query<SessionRow>(
        'SELECT * FROM local_checkout_sessions WHERE session_id = $1 FOR UPDATE',
        [sessionId],
      );
      const s = rows[0];
      if (!s) throw new AppError('NOT_FOUND', 'This checkout does not exist or has expired.');
      if (!csrfToken || !sameToken(csrfToken, s.csrf_token))
        throw new AppError('PERMISSION_DENIED', 'This form has expired. Go back and try again.');
      const success = s.success_url.replace('{CHECKOUT_SESSION_ID}', s.session_id);
      if (s.status === 'complete') return success; // a second click on Pay
      if (s.status !== 'open' || action === 'cancel') {
        await tx.query(
          `UPDATE local_checkout_sessions SET status = 'expired' WHERE session_id = $1 AND status = 'open'`,
          [sessionId],
        );
        return s.cancel_url;
      }
      if (action !== 'pay') throw new AppError('INVALID_ARGUMENT', 'action must be pay or cancel');
      await this.pay(tx, s);
      await tx.query(`UPDATE local_checkout_sessions SET status = 'complete' WHERE session_id = $1`, [sessionId]);
      return success;
    });
  }

  private async pay(tx: Queryable, s: SessionRow): Promise<void> {
    const now = this.clock();
    const { subscription_metadata, ...metadata } = s.metadata;
    const total = Math.max(0, s.amount_cents - s.discount_cents);
    const session = {
      id: s.session_id,
      object: 'checkout.session',
      mode: s.mode,
      status: 'complete',
      payment_status: 'paid',
      customer: s.customer_id || null,
      // As Stripe says it: the address the payer gave (the guest's, for a paid unlock).
      customer_details: s.customer_email ? { email: s.customer_email } : null,
      amount_total: total,
      currency: s.currency,
      metadata,
    };
    if (s.mode === 'payment') {
      await this.send('checkout.session.completed', { ...session, payment_intent: localId('pi'), subscription: null });
      return;
    }
    const subscriptionMetadata = subscription_metadata ? JSON.parse(subscription_metadata) : metadata;
    const subscriptionId = localId('sub');
    const end = addPeriod(now, metadata.billing_period ?? 'monthly');
    await tx.query(
      `INSERT INTO local_subscriptions (subscription_id, customer_id, price_id, status, current_period_start,
         current_period_end, metadata) VALUES ($1, $2, $3, 'active', $4, $5, $6)`,
      [subscriptionId, s.customer_id, s.price_id, now, end, JSON.stringify(subscriptionMetadata)],
    );
    await this.send('checkout.session.completed', { ...session, payment_intent: null, subscription: subscriptionId });
    await this.send('invoice.paid', {
      id: localId('in'),
      object: 'invoice',
      billing_reason: 'subscription_create',
      customer: s.customer_id,
      // As Stripe's invoice names what paid it, so a dispute of that payment finds its period.
      payment_intent: localId('pi'),
      amount_paid: total,
      currency: s.currency,
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: subscriptionId, metadata: subscriptionMetadata },
      },
      lines: {
        data: [
          { period: { start: seconds(now), end: seconds(end) }, pricing: { price_details: { price: s.price_id } } },
        ],
      },
    });
  }

  private subscriptionObject(row: LocalSubscriptionRow) {
    return {
      id: row.subscription_id,
      object: 'subscription',
      customer: row.customer_id,
      status: row.status,
      cancel_at_period_end: row.cancel_at_period_end,
      metadata: row.metadata,
      items: {
        data: [
          {
            price: { id: row.price_id },
            current_period_start: seconds(row.current_period_start),
            current_period_end: seconds(row.current_period_end),
          },
        ],
      },
    };
  }

  private async setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean): Promise<void> {
    const { rows } = await this.options.pool.query<LocalSubscriptionRow>(
      `UPDATE local_subscriptions SET cancel_at_period_end = $2 WHERE subscription_id = $1 AND status = 'active' RETURNING *`,
      [subscriptionId, cancel],
    );
    if (!rows[0]) throw new AppError('NOT_FOUND', 'You have no active subscription.');
    await this.send('customer.subscription.updated', this.subscriptionObject(rows[0]));
  }

  cancelAtPeriodEnd(subscriptionId: string): Promise<void> {
    return this.setCancelAtPeriodEnd(subscriptionId, true);
  }

  async createPortalSession(customerId: string, returnUrl: string): Promise<string> {
    const id = localId('bps');
    await this.options.pool.query(
      'INSERT INTO local_portal_sessions (portal_session_id, customer_id, return_url, csrf_token) VALUES ($1, $2, $3, $4)',
      [id, customerId, returnUrl, randomBytes(24).toString('base64url')],
    );
    return this.url(`/billing/local/${id}`);
  }

  private async portalSession(id: string) {
    const { rows } = await this.options.pool.query('SELECT * FROM local_portal_sessions WHERE portal_session_id = $1', [
      id,
    ]);
    return rows[0] as { customer_id: string; return_url: string; csrf_token: string } | undefined;
  }

  private async subscriptionsOf(customerId: string): Promise<LocalSubscriptionRow[]> {
    const { rows } = await this.options.pool.query<LocalSubscriptionRow>(
      'SELECT * FROM local_subscriptions WHERE customer_id = $1 ORDER BY current_period_start DESC',
      [customerId],
    );
    return rows;
  }

  async renderPortal(portalSessionId: string): Promise<{ status: number; html: string }> {
    const p = await this.portalSession(portalSessionId);
    if (!p) return { status: 404, html: notFoundPage() };
    const subs = await this.subscriptionsOf(p.customer_id);
    return {
      status: 200,
      html: portalPage({
        action: `/billing/local/${encodeURIComponent(portalSessionId)}`,
        csrfToken: p.csrf_token,
        returnUrl: p.return_url,
        subscriptions: subs.map((s) => ({
          id: s.subscription_id,
          name: this.planName(s.price_id) ?? 'Plan',
          status: s.status,
          cancelAtPeriodEnd: s.cancel_at_period_end,
          periodEnd: s.current_period_end,
        })),
      }),
    };
  }

  private planName(priceId: string): string | undefined {
    const product = this.options.catalogue.anyProductByPriceId(priceId);
    return product?.kind === 'plan' ? `${product.plan.name} (${product.period})` : undefined;
  }

  /** Cancel (at the period's end) or resume the customer's active subscription; back to the account page. */
  async submitPortal(portalSessionId: string, action: string, csrfToken: string): Promise<string> {
    const p = await this.portalSession(portalSessionId);
    if (!p) throw new AppError('NOT_FOUND', 'This page does not exist or has expired.');
    if (!csrfToken || !sameToken(csrfToken, p.csrf_token))
      throw new AppError('PERMISSION_DENIED', 'This form has expired. Go back and try again.');
    if (action !== 'cancel' && action !== 'resume')
      throw new AppError('INVALID_ARGUMENT', 'action must be cancel or resume');
    const active = (await this.subscriptionsOf(p.customer_id)).find((s) => s.status === 'active');
    if (!active) throw new AppError('NOT_FOUND', 'You have no active subscription.');
    await this.setCancelAtPeriodEnd(active.subscription_id, action === 'cancel');
    return p.return_url;
  }
}
