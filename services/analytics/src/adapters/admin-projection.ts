// Folds every event the dashboard cares about into the read models, inside the consumer's inbox
// transaction. Each statement is written so that replaying the same events in their per-user order
// gives the same rows (GREATEST/LEAST for times, a version guard for the balance).
import { events, eventTypes } from '@flatlay/proto';
import type { Queryable } from '@flatlay/platform';
import { isPaidPlan } from '../domain/user-record.js';
import { paymentFactOf } from '../consumers/billing-payments.js';

export interface EventInput {
  topic: string;
  type: string;
  payload: Uint8Array;
  eventId: string;
  occurredAt: Date;
  aggregateVersion: number;
}

/** Makes sure the user's row exists (unless the user was deleted); false when deleted. */
async function touch(tx: Queryable, userId: string, at: Date): Promise<boolean> {
  const { rows } = await tx.query<{ deleted: boolean }>(
    `WITH gone AS (SELECT 1 FROM deleted_users WHERE id = $1),
          made AS (INSERT INTO admin_users (id, updated_at) SELECT $1, $2 WHERE NOT EXISTS (SELECT 1 FROM gone)
                   ON CONFLICT (id) DO NOTHING)
     SELECT EXISTS (SELECT 1 FROM gone) AS deleted`,
    [userId, at],
  );
  return !rows[0]!.deleted;
}

const update = (tx: Queryable, userId: string, at: Date, set: string, values: unknown[] = []) =>
  tx.query(`UPDATE admin_users SET ${set}, updated_at = GREATEST(updated_at, $2) WHERE id = $1`, [
    userId,
    at,
    ...values,
  ]);

const ACTIVE = 'last_active = GREATEST(last_active, $2)';
const PAID = 'first_paid_at = LEAST(first_paid_at, $2), last_paid_at = GREATEST(last_paid_at, $2)';

async function balance(tx: Queryable, userId: string, e: EventInput, balanceAfter: number, active: boolean) {
  if (!(await touch(tx, userId, e.occurredAt))) return;
  await update(
    tx,
    userId,
    e.occurredAt,
    `token_balance = CASE WHEN balance_version < $3 THEN $4 ELSE token_balance END,
     balance_version = GREATEST(balance_version, $3)${active ? `, ${ACTIVE}` : ''}`,
    [e.aggregateVersion, balanceAfter],
  );
}

/** Applies one event to the read models; events of no interest change nothing. */
export async function applyEvent(tx: Queryable, e: EventInput): Promise<void> {
  const at = e.occurredAt;
  switch (e.type) {
    case eventTypes.UserRegistered: {
      const u = events.UserRegistered.decode(e.payload);
      if (!(await touch(tx, u.userId, at))) return;
      await update(tx, u.userId, at, `email = $3, created_at = LEAST(created_at, $2), ${ACTIVE}`, [u.email]);
      return;
    }
    case eventTypes.UserProfileChanged: {
      const u = events.UserProfileChanged.decode(e.payload);
      if (!(await touch(tx, u.userId, at))) return;
      await update(tx, u.userId, at, 'email = $3, first_name = $4, last_name = $5, picture = $6', [
        u.email,
        u.firstName,
        u.lastName,
        u.avatarUrl,
      ]);
      return;
    }
    case eventTypes.UserPlanChanged: {
      const u = events.UserPlanChanged.decode(e.payload);
      if (!(await touch(tx, u.userId, at))) return;
      const paid = isPaidPlan(u.subscriptionPlan) && u.subscriptionStatus === 'active';
      await update(tx, u.userId, at, `subscription_plan = $3, subscription_status = $4${paid ? `, ${PAID}` : ''}`, [
        u.subscriptionPlan || 'none',
        u.subscriptionStatus,
      ]);
      return;
    }
    case eventTypes.UserDeleted: {
      // Real deletion: the row goes, the audit keeps the operator's action but no longer whom by e-mail.
      const { userId } = events.UserDeleted.decode(e.payload);
      await tx.query('DELETE FROM admin_users WHERE id = $1', [userId]);
      await tx.query('INSERT INTO deleted_users (id, deleted_at) VALUES ($1, $2) ON CONFLICT DO NOTHING', [userId, at]);
      await tx.query('UPDATE token_adjustments SET user_email = NULL WHERE user_id = $1', [userId]);
      return;
    }
    case eventTypes.TokensGranted:
    case eventTypes.TokensRefunded:
    case eventTypes.TokensCredited:
    // A refunded or disputed pack's (or plan period's) tokens taken back: a balance event like the others.
    case eventTypes.TokensReversed: {
      const t = (
        e.type === eventTypes.TokensGranted
          ? events.TokensGranted
          : e.type === eventTypes.TokensRefunded
            ? events.TokensRefunded
            : e.type === eventTypes.TokensReversed
              ? events.TokensReversed
              : events.TokensCredited
      ).decode(e.payload);
      await balance(tx, t.userId, e, t.balanceAfter, false);
      return;
    }
    case eventTypes.TokensSpent: {
      const t = events.TokensSpent.decode(e.payload);
      await balance(tx, t.userId, e, t.balanceAfter, true);
      return;
    }
    case eventTypes.TokensAdjusted: {
      const t = events.TokensAdjusted.decode(e.payload);
      await balance(tx, t.userId, e, t.balanceAfter, false);
      await tx.query(
        `INSERT INTO token_adjustments (event_id, operator_id, user_id, user_email, direction, amount, balance_after, occurred_at)
         SELECT $1, $2, $3, (SELECT NULLIF(email, '') FROM admin_users WHERE id = $3), $4, $5, $6, $7
         ON CONFLICT (event_id) DO NOTHING`,
        [e.eventId, t.operatorId, t.userId, t.direction, t.amount, t.balanceAfter, at],
      );
      return;
    }
    case eventTypes.PaymentSucceeded: {
      const fact = paymentFactOf(e.type, e.payload);
      if (fact?.kind === 'anonymous-purchase') {
        await tx.query(
          `INSERT INTO anonymous_purchases (payment_id, amount_cents, currency, occurred_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (payment_id) DO NOTHING`,
          [fact.paymentId || e.eventId, fact.amountCents, fact.currency, at],
        );
      } else if (fact?.kind === 'user-payment' && (await touch(tx, fact.userId, at))) {
        await update(tx, fact.userId, at, `${PAID}, ${ACTIVE}`);
      }
      return;
    }
    case eventTypes.PaymentDisputed: {
      // A chargeback, recorded for the operator with its latest status (the take-back itself is
      // the ledger's, seen on the balance).
      const d = events.PaymentDisputed.decode(e.payload);
      await tx.query(
        `INSERT INTO payment_disputes (dispute_id, payment_id, user_id, kind, status, reason, amount_cents, currency,
           tokens_taken_back, opened_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)
         ON CONFLICT (dispute_id) DO UPDATE SET
           status = CASE WHEN payment_disputes.updated_at <= $10 THEN $5 ELSE payment_disputes.status END,
           reason = CASE WHEN $6 = '' THEN payment_disputes.reason ELSE $6 END,
           tokens_taken_back = GREATEST(payment_disputes.tokens_taken_back, $9),
           opened_at = LEAST(payment_disputes.opened_at, $10),
           updated_at = GREATEST(payment_disputes.updated_at, $10)`,
        [
          d.disputeId,
          d.paymentId,
          d.userId,
          d.kind,
          d.status,
          d.reason,
          d.amountCents,
          d.currency,
          d.tokensTakenBack,
          at,
        ],
      );
      return;
    }
    case eventTypes.SubscriptionActivated:
    case eventTypes.SubscriptionRenewed: {
      const s = (
        e.type === eventTypes.SubscriptionActivated ? events.SubscriptionActivated : events.SubscriptionRenewed
      ).decode(e.payload);
      if (!s.userId || !(await touch(tx, s.userId, at))) return;
      // Subscribing is the user's own act; a renewal happens without them.
      const active = e.type === eventTypes.SubscriptionActivated ? `, ${ACTIVE}` : '';
      await update(
        tx,
        s.userId,
        at,
        `subscription_period_end = GREATEST(subscription_period_end, $3), ${PAID}${active}`,
        [s.periodEnd ?? null],
      );
      return;
    }
    case eventTypes.SubscriptionCanceled: {
      const s = events.SubscriptionCanceled.decode(e.payload);
      if (!s.userId || !s.immediate || !(await touch(tx, s.userId, at))) return;
      await update(tx, s.userId, at, 'subscription_period_end = $3', [s.effectiveAt ?? at]);
      return;
    }
    case eventTypes.GenerationCompleted: {
      const g = events.GenerationCompleted.decode(e.payload);
      if (!g.userId || !(await touch(tx, g.userId, at))) return;
      await update(tx, g.userId, at, `total_images_processed = total_images_processed + 1, ${ACTIVE}`);
      return;
    }
    case eventTypes.GenerationFailed:
    case eventTypes.ImageUnlocked: {
      const g = (e.type === eventTypes.GenerationFailed ? events.GenerationFailed : events.ImageUnlocked).decode(
        e.payload,
      );
      if (!g.userId || !(await touch(tx, g.userId, at))) return;
      await update(tx, g.userId, at, ACTIVE);
      return;
    }
    default:
      return;
  }
}

/** Moves the topic's newest absorbed event time (for the projection lag). */
export async function recordPosition(tx: Queryable, topic: string, at: Date): Promise<void> {
  await tx.query(
    `INSERT INTO projection_positions (topic, newest_event_at, events) VALUES ($1, $2, 1)
     ON CONFLICT (topic) DO UPDATE SET newest_event_at = GREATEST(projection_positions.newest_event_at, $2),
       events = projection_positions.events + 1`,
    [topic, at],
  );
}
