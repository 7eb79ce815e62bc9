import Stripe from 'stripe';
import { AppError } from '@flatlay/platform';
import type { CheckoutRequest, PaymentProvider } from './payment-provider.js';

export interface StripeProviderOptions {
  secretKey: string;
  publishableKey?: string;
  webhookSecret?: string;
  /** Another API address (stripe-mock in tests); unset: Stripe's. */
  apiUrl?: string;
}

/** Stripe's refusals (a bad price id, a closed account) are the caller's problem, said plainly. */
async function stripeCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    // The same Idempotency-Key sent with another request: the caller's mistake, said as a conflict.
    if (error instanceof Stripe.errors.StripeIdempotencyError)
      throw new AppError('CONFLICT', 'This Idempotency-Key was already used for another request.');
    if (error instanceof Stripe.errors.StripeInvalidRequestError)
      throw new AppError('INVALID_ARGUMENT', 'The payment provider refused the request. Please refresh and try again.');
    if (error instanceof Stripe.errors.StripeAuthenticationError)
      throw new AppError('NOT_CONFIGURED', 'Payment System Not Configured');
    throw error;
  }
}

export class StripeProvider implements PaymentProvider {
  readonly name = 'stripe';
  readonly publishableKey: string | undefined;
  readonly webhookSecret: string | undefined;
  private readonly stripe: Stripe;

  constructor(options: StripeProviderOptions) {
    const api = options.apiUrl ? new URL(options.apiUrl) : undefined;
    this.stripe = new Stripe(options.secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      ...(api
        ? {
            host: api.hostname,
            port: api.port,
            protocol: api.protocol === 'http:' ? ('http' as const) : ('https' as const),
          }
        : {}),
    });
    this.publishableKey = options.publishableKey;
    this.webhookSecret = options.webhookSecret;
  }

  async createCustomer(userId: string, email: string | undefined): Promise<string> {
    const customer = await stripeCall(() =>
      this.stripe.customers.create(
        { ...(email ? { email } : {}), metadata: { user_id: userId } },
        // A retried start of checkout creates one customer, not two.
        { idempotencyKey: `customer-${userId}` },
      ),
    );
    return customer.id;
  }

  async resolvePromotionCode(code: string): Promise<string | undefined> {
    const found = await stripeCall(() => this.stripe.promotionCodes.list({ code, active: true, limit: 1 }));
    return found.data[0]?.id;
  }

  async createCheckoutSession(r: CheckoutRequest): Promise<{ id: string; url: string }> {
    const lineItem = r.line.priceId
      ? { price: r.line.priceId, quantity: 1 }
      : {
          price_data: {
            currency: r.line.currency,
            unit_amount: r.line.amountCents,
            product_data: { name: r.line.name },
          },
          quantity: 1,
        };
    const session = await stripeCall(() =>
      this.stripe.checkout.sessions.create(
        {
          mode: r.mode,
          line_items: [lineItem],
          ...(r.customerId ? { customer: r.customerId } : r.customerEmail ? { customer_email: r.customerEmail } : {}),
          ...(r.metadata.user_id ? { client_reference_id: r.metadata.user_id } : {}),
          metadata: r.metadata,
          ...(r.mode === 'subscription'
            ? { subscription_data: { metadata: r.subscriptionMetadata ?? r.metadata } }
            : {}),
          ...(r.mode === 'payment' ? { payment_intent_data: { metadata: r.metadata } } : {}),
          ...(r.promotionCodeId
            ? { discounts: [{ promotion_code: r.promotionCodeId }] }
            : { allow_promotion_codes: true }),
          success_url: r.successUrl,
          cancel_url: r.cancelUrl,
        },
        r.idempotencyKey ? { idempotencyKey: r.idempotencyKey } : {},
      ),
    );
    if (!session.url) throw new AppError('INTERNAL', 'The payment provider gave no checkout address');
    return { id: session.id, url: session.url };
  }

  async cancelAtPeriodEnd(subscriptionId: string): Promise<void> {
    await stripeCall(() => this.stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true }));
  }

  async createPortalSession(customerId: string, returnUrl: string): Promise<string> {
    const session = await stripeCall(() =>
      this.stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl }),
    );
    return session.url;
  }
}
