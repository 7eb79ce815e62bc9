import { events, eventTypes, topics } from '@flatlay/proto';
import { outboxMessage, type OutboxMessage } from '@flatlay/platform';
import type { TokenAccountEvent } from '../domain/index.js';

/**
 * Translates a TokenAccount's domain events into the protobuf events other services read.
 * Unlimited-plan bookkeeping stays internal: no other service reacts to it.
 */
export function toOutboxMessages(
  userId: string,
  firstVersion: number,
  eventIds: string[],
  domainEvents: TokenAccountEvent[],
  balances: number[],
): OutboxMessage[] {
  const out: OutboxMessage[] = [];
  domainEvents.forEach((event, i) => {
    const meta = {
      aggregateId: userId,
      aggregateVersion: firstVersion + i,
      eventId: eventIds[i]!,
      occurredAt: new Date(event.data.occurredAt),
    };
    const common = {
      userId,
      amount: event.data.amount,
      balanceAfter: balances[i]!,
      businessKey: event.data.businessKey,
      description: event.data.description,
    };
    const send = <T>(type: keyof typeof eventTypes, codec: Parameters<typeof outboxMessage<T>>[2], payload: T) =>
      out.push(outboxMessage(topics.ledgerAccount, eventTypes[type], codec, payload, meta));
    switch (event.type) {
      case 'TokensGranted':
        send('TokensGranted', events.TokensGranted, {
          ...common,
          source: event.data.source,
          subscriptionId: event.data.source === 'plan' ? event.data.subscriptionId : '',
          plan: event.data.source === 'plan' ? event.data.plan : '',
        });
        break;
      case 'TokensSpent':
        send('TokensSpent', events.TokensSpent, {
          ...common,
          imageId: event.data.imageId,
          purpose: event.data.purpose,
          unlimitedPlan: event.data.unlimitedPlan,
        });
        break;
      case 'TokensRefunded':
        send('TokensRefunded', events.TokensRefunded, { ...common, imageId: event.data.imageId });
        break;
      case 'TokensCredited':
        send('TokensCredited', events.TokensCredited, {
          ...common,
          paymentId: event.data.paymentId,
          packId: event.data.packId,
        });
        break;
      case 'TokensReversed':
        send('TokensReversed', events.TokensReversed, {
          ...common,
          paymentId: event.data.paymentId,
          subscriptionId: '',
        });
        break;
      case 'PlanTokensReversed':
        // Published as any other take-back; the subscription (and the business key) say which.
        send('TokensReversed', events.TokensReversed, {
          ...common,
          paymentId: '',
          subscriptionId: event.data.subscriptionId,
        });
        break;
      case 'TokensAdjusted':
        send('TokensAdjusted', events.TokensAdjusted, {
          ...common,
          operatorId: event.data.operatorId,
          direction: event.data.direction,
        });
        break;
      case 'AccountClosed':
        send('AccountClosed', events.AccountClosed, { userId, balanceAtClosing: event.data.balanceAtClosing });
        break;
      case 'UnlimitedPlanStarted':
      case 'UnlimitedPlanEnded':
        break;
    }
  });
  return out;
}
