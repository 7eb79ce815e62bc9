import { events, eventTypes, topics } from '@flatlay/proto';
import {
  AppError,
  decodeEnvelope,
  decodeOrPoison,
  PostgresInbox,
  type Delivery,
  type Logger,
  type Pool,
} from '@flatlay/platform';
import type { TokenAccountCommand } from '../domain/index.js';
import type { TokenAccounts } from '../app/token-accounts.js';

export const CONSUMER = 'ledger';
export const consumedTopics = [topics.identityUser, topics.billingPayment, topics.billingSubscription];

/** What an incoming event asks of which account; undefined when the ledger has nothing to do. */
export function commandFor(
  type: string,
  payload: Uint8Array,
  at: Date,
): { userId: string; command: TokenAccountCommand } | undefined {
  switch (type) {
    case eventTypes.UserRegistered: {
      const e = events.UserRegistered.decode(payload);
      return { userId: e.userId, command: { type: 'SignUpGrant', data: { at } } };
    }
    case eventTypes.UserDeleted: {
      const e = events.UserDeleted.decode(payload);
      return { userId: e.userId, command: { type: 'CloseAccount', data: { at } } };
    }
    case eventTypes.PaymentSucceeded: {
      const e = events.PaymentSucceeded.decode(payload);
      if (e.kind !== 'token_pack' || !e.userId) return undefined; // unlocks and guest payments are the image service's
      return {
        userId: e.userId,
        command: {
          type: 'CreditPayment',
          data: { paymentId: e.paymentId, packId: e.packId, packName: e.packName, tokens: e.tokens, at },
        },
      };
    }
    case eventTypes.PaymentRefunded: {
      // Only a token pack's refund moves tokens; subscription fees are not refundable.
      const e = events.PaymentRefunded.decode(payload);
      if (e.kind !== 'token_pack' || !e.userId) return undefined;
      return {
        userId: e.userId,
        command: {
          type: 'ReversePayment',
          data: { paymentId: e.paymentId, packName: e.packName, tokens: e.tokens, at },
        },
      };
    }
    case eventTypes.SubscriptionActivated:
    case eventTypes.SubscriptionRenewed: {
      const e = (
        type === eventTypes.SubscriptionActivated ? events.SubscriptionActivated : events.SubscriptionRenewed
      ).decode(payload);
      if (!e.periodStart || !e.periodEnd) return undefined;
      return {
        userId: e.userId,
        command: {
          type: 'GrantPlan',
          data: {
            subscriptionId: e.subscriptionId,
            plan: e.plan as never,
            billingPeriod: e.billingPeriod as never,
            periodStart: e.periodStart,
            periodEnd: e.periodEnd,
            at,
          },
        },
      };
    }
    case eventTypes.PlanPeriodReversed: {
      // A plan period's payment disputed: the ledger takes back what that period granted (it knows
      // what that was); the subscription topic keeps it behind the period's own grant.
      const e = events.PlanPeriodReversed.decode(payload);
      if (!e.userId || !e.periodStart) return undefined;
      return {
        userId: e.userId,
        command: {
          type: 'ReversePlanGrant',
          data: { subscriptionId: e.subscriptionId, periodStart: e.periodStart, disputeId: e.disputeId, at },
        },
      };
    }
    case eventTypes.SubscriptionCanceled: {
      const e = events.SubscriptionCanceled.decode(payload);
      if (!e.immediate || e.plan !== 'unlimited') return undefined; // a token plan's granted tokens stay
      return {
        userId: e.userId,
        command: { type: 'EndUnlimitedPlan', data: { subscriptionId: e.subscriptionId, at } },
      };
    }
    default:
      return undefined;
  }
}

/**
 * Applies each event once (inbox) in the same transaction as its account change. A refusal is
 * a fact about the event, not a fault: it is logged and the event counts as handled, so one
 * bad event never blocks its partition. Other errors are retried by the bus.
 */
export function ledgerEventHandler(pool: Pool, accounts: TokenAccounts, logger: Logger) {
  const inbox = new PostgresInbox(pool);
  return async (delivery: Delivery): Promise<void> => {
    const envelope = decodeEnvelope(delivery.value);
    // A payload that does not decode as its type is a dead letter, not a retry (ADR 0009).
    const wanted = decodeOrPoison(`${envelope.type} payload`, () =>
      commandFor(envelope.type, envelope.payload, envelope.occurredAt ?? new Date()),
    );
    if (!wanted) return;
    await inbox.handleOnce(CONSUMER, envelope.eventId, async (tx) => {
      try {
        await accounts.execute(wanted.userId, wanted.command, tx);
      } catch (error) {
        if (!(error instanceof AppError) || (error.code === 'CONFLICT' && /busy/.test(error.message))) throw error;
        logger.warn(
          { eventId: envelope.eventId, type: envelope.type, code: error.code, reason: error.message },
          'event refused by the token account',
        );
      }
    });
  };
}
