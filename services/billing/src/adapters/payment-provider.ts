// The payment provider behind billing: Stripe, or the local provider that plays its part. Both
// end in the same place: signed Stripe-shaped events delivered to billing's one webhook handler.

export type CheckoutLine =
  | { priceId: string; name: string; amountCents: number; currency: string }
  | { priceId?: undefined; name: string; amountCents: number; currency: string };

export interface CheckoutRequest {
  mode: 'payment' | 'subscription';
  customerId?: string;
  customerEmail?: string;
  line: CheckoutLine;
  /** Facts the webhook needs back: user, what was sold, image or enhancement id. */
  metadata: Record<string, string>;
  /** Copied onto the subscription, so its invoices name the user and plan whatever the order of events. */
  subscriptionMetadata?: Record<string, string>;
  successUrl: string;
  cancelUrl: string;
  /** A promotion code already resolved; without one, the buyer may enter a code on the checkout page. */
  promotionCodeId?: string;
  /**
   * The caller's idempotency key, already scoped to the caller: the same key gives back the same
   * session (Stripe's idempotencyKey; the local provider keeps it on its session).
   */
  idempotencyKey?: string;
}

export interface PaymentProvider {
  readonly name: 'stripe' | 'local';
  /** What the web client needs to show the provider's forms; undefined when not configured. */
  readonly publishableKey: string | undefined;
  /** The secret webhook events are signed with; undefined when not configured. */
  readonly webhookSecret: string | undefined;
  createCustomer(userId: string, email: string | undefined): Promise<string>;
  /** The provider's id of an active promotion code, or undefined when there is none by that code. */
  resolvePromotionCode(code: string): Promise<string | undefined>;
  createCheckoutSession(request: CheckoutRequest): Promise<{ id: string; url: string }>;
  cancelAtPeriodEnd(subscriptionId: string): Promise<void>;
  createPortalSession(customerId: string, returnUrl: string): Promise<string>;
}
