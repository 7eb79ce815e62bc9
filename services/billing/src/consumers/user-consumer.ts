import { events, eventTypes, topics } from '@flatlay/proto';
import { decodeEnvelope, decodePayload, PostgresInbox, type Delivery, type Logger, type Pool } from '@flatlay/platform';
import type { Subscriptions } from '../app/subscriptions.js';
import { forgetContact, saveContact } from '../adapters/user-contacts.js';

export const CONSUMER = 'billing';
export const consumedTopics = [topics.identityUser];

/**
 * A deleted user's subscription stops renewing at the provider (the period paid for runs out; no
 * later charge), and their payment-provider customer mapping is dropped, so nothing of theirs is
 * reused. Payments and subscriptions stay: they are the financial record, and hold ids only.
 * The provider is called before the inbox records the event, so a failed call is retried with the
 * event (cancelling at period end twice changes nothing).
 */
export function userEventHandler(pool: Pool, logger: Logger, subscriptions?: Pick<Subscriptions, 'endForDeletedUser'>) {
  const inbox = new PostgresInbox(pool);
  return async (delivery: Delivery): Promise<void> => {
    const envelope = decodeEnvelope(delivery.value);
    // The address receipts go to, as identity last said it (an event handled once, in order per user).
    if (envelope.type === eventTypes.UserRegistered || envelope.type === eventTypes.UserProfileChanged) {
      const { userId, email } =
        envelope.type === eventTypes.UserRegistered
          ? decodePayload(events.UserRegistered, envelope.payload)
          : decodePayload(events.UserProfileChanged, envelope.payload);
      if (!userId || !email) return;
      await inbox.handleOnce(CONSUMER, envelope.eventId, (tx) => saveContact(tx, userId, email));
      return;
    }
    if (envelope.type !== eventTypes.UserDeleted) return;
    const { userId } = decodePayload(events.UserDeleted, envelope.payload);
    if (!userId) return;
    await subscriptions?.endForDeletedUser(userId);
    await inbox.handleOnce(CONSUMER, envelope.eventId, async (tx) => {
      await forgetContact(tx, userId);
      const { rowCount } = await tx.query('DELETE FROM customers WHERE user_id = $1', [userId]);
      if (rowCount) logger.info({ userId }, 'dropped the payment customer of a deleted user');
    });
  };
}
