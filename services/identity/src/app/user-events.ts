import { events, eventTypes, topics } from '@flatlay/proto';
import { enqueueOutbox, outboxMessage, type Queryable } from '@flatlay/platform';
import type { PlanState } from '../domain/index.js';

// Identity's facts, written to the outbox in the transaction that changes the account.
const meta = (userId: string, now: Date) => ({ aggregateId: userId, occurredAt: now });

export const userEvents = {
  registered: (
    tx: Queryable,
    u: { id: string; email: string },
    method: 'password' | 'google' | 'supabase',
    now: Date,
  ) =>
    enqueueOutbox(tx, [
      outboxMessage(
        topics.identityUser,
        eventTypes.UserRegistered,
        events.UserRegistered,
        { userId: u.id, email: u.email, method },
        meta(u.id, now),
      ),
    ]),

  profileChanged: (
    tx: Queryable,
    u: { id: string; email: string; firstName: string; lastName: string; avatarUrl: string },
    now: Date,
  ) =>
    enqueueOutbox(tx, [
      outboxMessage(
        topics.identityUser,
        eventTypes.UserProfileChanged,
        events.UserProfileChanged,
        {
          userId: u.id,
          email: u.email,
          firstName: u.firstName,
          lastName: u.lastName,
          avatarUrl: u.avatarUrl,
        },
        meta(u.id, now),
      ),
    ]),

  planChanged: (tx: Queryable, userId: string, plan: PlanState, now: Date) =>
    enqueueOutbox(tx, [
      outboxMessage(
        topics.identityUser,
        eventTypes.UserPlanChanged,
        events.UserPlanChanged,
        {
          userId,
          subscriptionPlan: plan.plan,
          subscriptionStatus: plan.status,
        },
        meta(userId, now),
      ),
    ]),

  deleted: (tx: Queryable, userId: string, now: Date) =>
    enqueueOutbox(tx, [
      outboxMessage(topics.identityUser, eventTypes.UserDeleted, events.UserDeleted, { userId }, meta(userId, now)),
    ]),

  /**
   * The outbox keeps rows after the relay published them, and registration and profile rows carry
   * the e-mail and name: deleting an account removes those too, so identity's database keeps no
   * personal data of a deleted user. A row not yet published is simply never published, which is
   * what deletion wants; the UserDeleted written in the same transaction still goes out.
   */
  forget: (tx: Queryable, userId: string) =>
    tx.query('DELETE FROM outbox WHERE message_key = $1 AND event_type = ANY($2::text[])', [
      userId,
      [eventTypes.UserRegistered, eventTypes.UserProfileChanged],
    ]),
};
