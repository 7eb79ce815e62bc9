// A user's subscription as the account page shows it, and what they may do with it.
import { AppError, enqueueOutbox, withTransaction, type Pool } from '@flatlay/platform';
import { complimentaryId, grantComplimentary, revokeComplimentary } from '../domain/complimentary-plan.js';
import { cancelAtPeriodEnd } from '../domain/subscription.js';
import { subscriptionMessage } from './billing-events.js';
import type { PaymentProvider } from '../adapters/payment-provider.js';
import * as records from '../adapters/billing-records.js';

export class Subscriptions {
  constructor(
    private readonly pool: Pool,
    private readonly provider: PaymentProvider,
    private readonly publicBaseUrl: string,
  ) {}

  async status(userId: string) {
    if (!userId) throw new AppError('INVALID_ARGUMENT', 'userId is required');
    const s = await records.currentSubscriptionOf(this.pool, userId);
    if (!s)
      return {
        hasSubscription: false,
        subscriptionPlan: '',
        status: '',
        cancelAtPeriodEnd: false,
        currentPeriodEnd: 0,
        billingPeriod: '',
      };
    return {
      hasSubscription: s.status !== 'canceled',
      subscriptionPlan: s.plan,
      status: s.status,
      cancelAtPeriodEnd: s.cancelAtPeriodEnd,
      currentPeriodEnd: s.currentPeriodEnd ? Math.floor(s.currentPeriodEnd.getTime() / 1000) : 0,
      billingPeriod: s.billingPeriod,
    };
  }

  /**
   * Cancels at the end of the paid period: the plan stays until then. Billing records and
   * publishes it now; the provider's subscription-updated event then finds nothing new.
   */
  async cancel(userId: string): Promise<{ message: string }> {
    const s = userId ? await records.currentSubscriptionOf(this.pool, userId) : undefined;
    if (!s || s.status === 'canceled') throw new AppError('NOT_FOUND', 'You have no active subscription to cancel.');
    if (s.subscriptionId === complimentaryId(s.plan, userId))
      throw new AppError('CONFLICT', 'Your plan was granted by an administrator: there is no payment to cancel.');
    if (!s.cancelAtPeriodEnd) {
      await this.provider.cancelAtPeriodEnd(s.subscriptionId);
      await withTransaction(this.pool, async (tx) => {
        await records.lockKey(tx, `subscription:${s.subscriptionId}`);
        const current = await records.readSubscription(tx, s.subscriptionId);
        if (!current) return;
        const decision = cancelAtPeriodEnd(current);
        await records.writeSubscription(tx, decision.record);
        const at = new Date();
        await enqueueOutbox(
          tx,
          decision.events.map((e) => subscriptionMessage(e, at, `cancel:${s.subscriptionId}`)),
        );
      });
    }
    const end = s.currentPeriodEnd ? ` on ${s.currentPeriodEnd.toISOString().slice(0, 10)}` : '';
    return {
      message: `Your subscription will be cancelled at the end of the current billing period${end}. You keep your plan until then.`,
    };
  }

  /**
   * The account was deleted (by its owner or an administrator): a paid subscription stops renewing
   * at the provider. Nothing to do for none, a cancelled or complimentary one, or one already ending.
   */
  async endForDeletedUser(userId: string): Promise<boolean> {
    const s = await records.currentSubscriptionOf(this.pool, userId);
    if (!s || s.status === 'canceled' || s.subscriptionId === complimentaryId(s.plan, userId)) return false;
    if (s.cancelAtPeriodEnd) return false;
    await this.cancel(userId);
    return true;
  }

  /**
   * An administrator grants or revokes a plan without a payment (the gateway checks the role):
   * recorded and published in one transaction, so every service learns it as it learns a paid plan.
   */
  async setComplimentary(r: { userId: string; plan: string; granted: boolean; operatorId: string; email?: string }) {
    if (!r.userId) throw new AppError('INVALID_ARGUMENT', 'userId is required');
    const input = { userId: r.userId, plan: r.plan, email: r.email || r.userId, now: new Date() };
    const id = complimentaryId(r.plan, r.userId);
    return withTransaction(this.pool, async (tx) => {
      await records.lockKey(tx, `subscription:${id}`);
      const existing = await records.readSubscription(tx, id);
      const decision = r.granted
        ? grantComplimentary(input, await records.currentSubscriptionOf(tx, r.userId), existing)
        : revokeComplimentary(input, existing);
      await records.writeSubscription(tx, decision.record);
      const cause = `complimentary:${id}:${r.granted ? 'grant' : 'revoke'}:${input.now.getTime()}:${r.operatorId}`;
      await enqueueOutbox(
        tx,
        decision.events.map((e) => subscriptionMessage(e, input.now, cause)),
      );
      return { message: decision.message };
    });
  }

  async portal(userId: string): Promise<{ url: string }> {
    const customerId = userId ? await records.customerOf(this.pool, userId) : undefined;
    if (!customerId)
      throw new AppError('NOT_FOUND', 'You have no billing account yet. Subscribe or buy a token pack first.');
    const url = await this.provider.createPortalSession(customerId, new URL('/account', this.publicBaseUrl).toString());
    return { url };
  }
}
