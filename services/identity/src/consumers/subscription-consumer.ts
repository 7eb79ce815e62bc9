import { events, eventTypes, topics } from '@flatlay/proto';
import { decodeEnvelope, PostgresInbox, type Delivery, type Logger, type Pool } from '@flatlay/platform';
import type { SubscriptionFact } from '../domain/index.js';
import type { Accounts } from '../app/accounts.js';

export const CONSUMER = 'identity';
export const consumedTopics = [topics.billingSubscription];

/** The subscription fact an event carries, and whose it is; undefined for other events. */
export function subscriptionFactOf(
  type: string,
  payload: Uint8Array,
  occurredAt: Date,
): { userId: string; fact: SubscriptionFact; customerId?: string } | undefined {
  switch (type) {
    case eventTypes.SubscriptionActivated:
    case eventTypes.SubscriptionRenewed: {
      const e = (
        type === eventTypes.SubscriptionActivated ? events.SubscriptionActivated : events.SubscriptionRenewed
      ).decode(payload);
      const kind = type === eventTypes.SubscriptionActivated ? 'activated' : 'renewed';
      return {
        userId: e.userId,
        fact: {
          type: kind,
          subscriptionId: e.subscriptionId,
          plan: e.plan,
          periodEnd: e.periodEnd ?? null,
          occurredAt,
        },
      };
    }
    case eventTypes.SubscriptionStatusChanged: {
      const e = events.SubscriptionStatusChanged.decode(payload);
      const status = e.status === 'active' || e.status === 'past_due' || e.status === 'canceled' ? e.status : undefined;
      if (!status) return undefined;
      return {
        userId: e.userId,
        // The payment provider's customer id arrives with the status; the profile keeps it so
        // support and the billing portal can find the customer from the account.
        customerId: e.stripeCustomerId,
        fact: {
          type: 'status',
          subscriptionId: e.subscriptionId,
          plan: e.plan,
          status,
          periodEnd: e.currentPeriodEnd ?? null,
          occurredAt,
        },
      };
    }
    case eventTypes.SubscriptionCanceled: {
      const e = events.SubscriptionCanceled.decode(payload);
      return {
        userId: e.userId,
        fact: {
          type: 'canceled',
          subscriptionId: e.subscriptionId,
          plan: e.plan,
          immediate: e.immediate,
          effectiveAt: e.effectiveAt ?? null,
          occurredAt,
        },
      };
    }
    default:
      return undefined;
  }
}

/** Keeps the plan fields of profiles in step with billing's subscription events, each event once (inbox). */
export function subscriptionEventHandler(pool: Pool, accounts: Accounts, logger: Logger) {
  const inbox = new PostgresInbox(pool);
  return async (delivery: Delivery): Promise<void> => {
    const envelope = decodeEnvelope(delivery.value);
    const wanted = subscriptionFactOf(envelope.type, envelope.payload, envelope.occurredAt ?? new Date());
    if (!wanted?.userId) return;
    await inbox.handleOnce(CONSUMER, envelope.eventId, async (tx) => {
      const applied = await accounts.applySubscriptionFact(tx, wanted.userId, wanted.fact, wanted.customerId);
      if (!applied)
        logger.debug({ eventId: envelope.eventId, type: envelope.type }, 'subscription event changed no profile');
    });
  };
}
