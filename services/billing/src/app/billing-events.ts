// Billing's decisions as outbox messages: protobuf events on billing's two topics.
import { events, eventTypes, topics } from '@flatlay/proto';
import { outboxMessage, type OutboxMessage } from '@flatlay/platform';
import type { PaymentEvent } from '../domain/payment.js';
import type { SubscriptionEvent } from '../domain/subscription.js';

export function subscriptionMessage(e: SubscriptionEvent, occurredAt: Date, causationId: string): OutboxMessage {
  const meta = { aggregateId: e.data.userId, occurredAt, causationId };
  switch (e.type) {
    case 'SubscriptionActivated':
      return outboxMessage(topics.billingSubscription, eventTypes[e.type], events.SubscriptionActivated, e.data, meta);
    case 'SubscriptionRenewed':
      return outboxMessage(topics.billingSubscription, eventTypes[e.type], events.SubscriptionRenewed, e.data, meta);
    case 'SubscriptionStatusChanged':
      return outboxMessage(
        topics.billingSubscription,
        eventTypes[e.type],
        events.SubscriptionStatusChanged,
        e.data,
        meta,
      );
    case 'PlanPeriodReversed':
      // On the subscription topic, keyed by the user: behind the period's own grant.
      return outboxMessage(topics.billingSubscription, eventTypes[e.type], events.PlanPeriodReversed, e.data, meta);
    case 'SubscriptionCanceled':
      return outboxMessage(topics.billingSubscription, eventTypes[e.type], events.SubscriptionCanceled, e.data, meta);
  }
}

export function paymentMessage(e: PaymentEvent, occurredAt: Date, causationId: string): OutboxMessage {
  const meta = { aggregateId: e.key, occurredAt, causationId };
  switch (e.type) {
    case 'PaymentSucceeded':
      return outboxMessage(topics.billingPayment, eventTypes[e.type], events.PaymentSucceeded, e.data, meta);
    case 'ImageUnlockPaid':
      return outboxMessage(topics.billingPayment, eventTypes[e.type], events.ImageUnlockPaid, e.data, meta);
    case 'AnonymousEnhancementPaid':
      return outboxMessage(topics.billingPayment, eventTypes[e.type], events.AnonymousEnhancementPaid, e.data, meta);
    case 'PaymentRefunded':
      return outboxMessage(topics.billingPayment, eventTypes[e.type], events.PaymentRefunded, e.data, meta);
    case 'PaymentDisputed':
      return outboxMessage(topics.billingPayment, eventTypes[e.type], events.PaymentDisputed, e.data, meta);
  }
}
