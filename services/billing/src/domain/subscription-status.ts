/** The three states the product shows; Stripe's other states fold into them. */
export type SubscriptionStatus = 'active' | 'past_due' | 'canceled';

export function normaliseStatus(stripeStatus: string): SubscriptionStatus {
  switch (stripeStatus) {
    case 'active':
    case 'trialing':
      return 'active';
    case 'canceled':
    case 'incomplete_expired':
      return 'canceled';
    default:
      // past_due, unpaid, incomplete, paused: not paid for, so no plan benefits until it is.
      return 'past_due';
  }
}
