import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type AppError, call, createLogger, outboxMessage } from '@flatlay/platform';
import { events, eventTypes, topics } from '@flatlay/proto';
import { Catalogue } from '../src/app/catalogue.js';
import { Subscriptions } from '../src/app/subscriptions.js';
import type { PaymentProvider } from '../src/adapters/payment-provider.js';
import { userEventHandler } from '../src/consumers/user-consumer.js';
import { defaultCatalogueFile } from '../src/app/catalogue.js';
import { readFileSync } from 'node:fs';
import { waitFor as waitForShort } from '../../platform/test/support.js';
import { waitForMail } from '../../platform/test/mailbox.js';
import { startStack, type Stack } from './support/stack.js';

// The stack's consumers read its own topics only (a fresh namespace, ADR 0010), never the run's
// history: a delivery slower than this is a fault to find, not to wait out.
const waitFor = (condition: () => Promise<boolean>, message: string) => waitForShort(condition, message, 60_000);

// The default catalogue with one promo code, as a deployment would configure it.
const catalogue = Catalogue.parse({
  ...JSON.parse(readFileSync(defaultCatalogueFile, 'utf8')),
  promo_codes: [{ code: 'LAUNCH20', percent_off: 20 }],
});

describe('billing on the local payment provider (no keys)', { timeout: 400_000 }, () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({
      withLedger: true,
      billing: { env: { PUBLIC_BASE_URL: 'http://localhost:8080' }, catalogue },
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const b = () => stack.billing;
  const balanceOf = async (userId: string) => (await call(stack.ledger!, stack.ledger!.getBalance, { userId })).balance;
  const sessionOf = (url: string) => {
    const match = /^http:\/\/localhost:8080\/checkout\/local\/(cs_local_[a-f0-9]+)$/.exec(url);
    assert.ok(match, url);
    return match[1]!;
  };
  const csrfOf = (html: string) => /name="csrf_token" value="([^"]+)"/.exec(html)![1]!;
  const checkout = (
    userId: string,
    fields: { priceId?: string; plan?: string; productType: string; promoCode?: string },
  ) =>
    call(b(), b().createCheckoutSession, {
      userId,
      email: '',
      priceId: fields.priceId ?? '',
      plan: fields.plan ?? '',
      productType: fields.productType,
      promoCode: fields.promoCode ?? '',
      idempotencyKey: '',
    });

  /** A user with a ledger account who bought `plan` on the local checkout page. */
  const subscribedUser = async (plan: string) => {
    const userId = randomUUID();
    await call(stack.ledger!, stack.ledger!.openAccount, { userId });
    const { url } = await checkout(userId, { plan, productType: 'subscription' });
    const sessionId = sessionOf(url);
    const csrfToken = csrfOf((await call(b(), b().renderLocalCheckout, { sessionId })).html);
    await call(b(), b().submitLocalCheckout, { sessionId, action: 'pay', csrfToken });
    return userId;
  };

  it('answers a local publishable key', async () => {
    const config = await call(b(), b().getStripeConfig, {});
    assert.deepEqual([config.provider, config.publishableKey.startsWith('pk_local_')], ['local', true]);
  });

  it('the same Idempotency-Key from the same caller gives back the same checkout session', async () => {
    const userId = randomUUID();
    const pack = {
      userId,
      email: '',
      priceId: 'price_main_pack',
      plan: '',
      productType: 'payment',
      promoCode: '',
      idempotencyKey: 'k-1',
    };
    const [a, c] = await Promise.all([
      call(b(), b().createCheckoutSession, pack),
      call(b(), b().createCheckoutSession, pack),
    ]);
    const again = await call(b(), b().createCheckoutSession, pack);
    assert.deepEqual([c.sessionId, again.sessionId, again.url], [a.sessionId, a.sessionId, a.url]);
    const other = await call(b(), b().createCheckoutSession, { ...pack, idempotencyKey: 'k-2' });
    const otherUser = await call(b(), b().createCheckoutSession, { ...pack, userId: randomUUID() });
    const noKey = [
      await call(b(), b().createCheckoutSession, { ...pack, idempotencyKey: '' }),
      await call(b(), b().createCheckoutSession, { ...pack, idempotencyKey: '' }),
    ];
    assert.equal(
      new Set([a.sessionId, other.sessionId, otherUser.sessionId, ...noKey.map((n) => n.sessionId)]).size,
      5,
    );
    const guest = { enhancementId: randomUUID(), successUrl: '/', cancelUrl: '/', email: '', idempotencyKey: 'k-1' };
    const g1 = await call(b(), b().createAnonymousPayment, guest);
    const g2 = await call(b(), b().createAnonymousPayment, guest);
    assert.equal(g1.sessionId, g2.sessionId);
    assert.notEqual(g1.sessionId, a.sessionId, "a guest's key never meets a user's");
    const { rows } = await stack.billingService.context.pool.query(
      `SELECT count(*)::int AS n FROM local_checkout_sessions WHERE metadata->>'user_id' = $1`,
      [userId],
    );
    assert.equal(rows[0].n, 4, 'k-1 once, k-2 once, and the two without a key');
  });

  it('Pay on the local checkout page credits the pack through the webhook handler', async () => {
    const userId = randomUUID();
    await call(stack.ledger!, stack.ledger!.openAccount, { userId });
    const { url } = await checkout(userId, { priceId: 'price_main_pack', productType: 'payment' });
    const sessionId = sessionOf(url);
    const page = await call(b(), b().renderLocalCheckout, { sessionId });
    assert.equal(page.status, 200);
    assert.match(page.html, /Main pack/);
    assert.match(page.html, /\$24/);
    assert.match(page.html, /value="pay"/);
    await assert.rejects(
      call(b(), b().submitLocalCheckout, { sessionId, action: 'pay', csrfToken: 'forged' }),
      (e: AppError) => e.code === 'PERMISSION_DENIED',
    );
    const csrfToken = csrfOf(page.html);
    const paid = await call(b(), b().submitLocalCheckout, { sessionId, action: 'pay', csrfToken });
    assert.equal(paid.redirectUrl, 'http://localhost:8080/dashboard?payment=success');
    // A second click changes nothing and goes to the same place.
    assert.equal(
      (await call(b(), b().submitLocalCheckout, { sessionId, action: 'pay', csrfToken })).redirectUrl,
      paid.redirectUrl,
    );
    const { pool } = stack.billingService.context;
    const webhookEvents = await pool.query(`SELECT event_type FROM webhook_events WHERE event_id LIKE 'evt_local_%'`);
    assert.ok(webhookEvents.rows.some((r: { event_type: string }) => r.event_type === 'checkout.session.completed'));
    await waitFor(async () => (await balanceOf(userId)) >= 1700, 'pack credited');
    assert.match((await call(b(), b().renderLocalCheckout, { sessionId })).html, /already paid/);
  });

  it('Cancel goes back to pricing and charges nothing; an unknown promo code is refused', async () => {
    const userId = randomUUID();
    const { url } = await checkout(userId, { priceId: 'price_starter_pack', productType: 'payment' });
    const sessionId = sessionOf(url);
    const csrfToken = csrfOf((await call(b(), b().renderLocalCheckout, { sessionId })).html);
    const back = await call(b(), b().submitLocalCheckout, { sessionId, action: 'cancel', csrfToken });
    assert.equal(back.redirectUrl, 'http://localhost:8080/pricing?payment=cancelled');
    const { rows } = await stack.billingService.context.pool.query('SELECT 1 FROM payments WHERE payment_id = $1', [
      sessionId,
    ]);
    assert.equal(rows.length, 0);
    await assert.rejects(
      checkout(userId, { priceId: 'price_starter_pack', productType: 'payment', promoCode: 'NOPE' }),
      (e: AppError) => e.code === 'INVALID_ARGUMENT' && /promo code/.test(e.message),
    );
    const discounted = await checkout(userId, {
      priceId: 'price_starter_pack',
      productType: 'payment',
      promoCode: 'launch20',
    });
    assert.match((await call(b(), b().renderLocalCheckout, { sessionId: sessionOf(discounted.url) })).html, /\$7\.20/);
  });

  it('a plan bought locally grants its tokens; the local portal cancels at period end and resumes', async () => {
    const userId = await subscribedUser('lite_monthly');
    const status = await call(b(), b().getSubscription, { userId });
    assert.deepEqual([status.hasSubscription, status.subscriptionPlan, status.status], [true, 'lite', 'active']);
    await waitFor(async () => (await balanceOf(userId)) >= 1900, 'plan tokens granted');
    // The local invoice names what paid it, as Stripe's does, so a dispute of it finds the period.
    const periods = await stack.billingService.context.pool.query(
      `SELECT p.payment_intent_id, p.plan, p.billing_period FROM subscription_periods p
       JOIN subscriptions s USING (subscription_id) WHERE s.user_id = $1`,
      [userId],
    );
    assert.equal(periods.rows.length, 1);
    assert.match(periods.rows[0].payment_intent_id, /^pi_local_[a-f0-9]+$/);
    assert.deepEqual([periods.rows[0].plan, periods.rows[0].billing_period], ['lite', 'monthly']);
    await assert.rejects(
      checkout(userId, { plan: 'studio_monthly', productType: 'subscription' }),
      (e: AppError) => e.code === 'CONFLICT',
    );

    const portal = await call(b(), b().createPortalSession, { userId });
    const portalSessionId = /\/billing\/local\/(bps_local_[a-f0-9]+)$/.exec(portal.url)![1]!;
    const page = await call(b(), b().renderLocalPortal, { portalSessionId });
    assert.match(page.html, /Cancel subscription/);
    const back = await call(b(), b().submitLocalPortal, {
      portalSessionId,
      action: 'cancel',
      csrfToken: csrfOf(page.html),
    });
    assert.equal(back.redirectUrl, 'http://localhost:8080/account');
    assert.equal((await call(b(), b().getSubscription, { userId })).cancelAtPeriodEnd, true);
    const again = await call(b(), b().renderLocalPortal, { portalSessionId });
    assert.match(again.html, /Resume subscription/);
    await call(b(), b().submitLocalPortal, { portalSessionId, action: 'resume', csrfToken: csrfOf(again.html) });
    assert.equal((await call(b(), b().getSubscription, { userId })).cancelAtPeriodEnd, false);
    // The account page's Cancel takes the same path through the local provider's event.
    await call(b(), b().cancelSubscription, { userId });
    const after = await call(b(), b().getSubscription, { userId });
    assert.deepEqual([after.status, after.cancelAtPeriodEnd], ['active', true]);
  });

  it("a deleted user's subscription stops renewing at the provider (the paid period runs out)", async () => {
    const userId = await subscribedUser('lite_monthly');
    assert.deepEqual(
      [
        (await call(b(), b().getSubscription, { userId })).status,
        (await call(b(), b().getSubscription, { userId })).cancelAtPeriodEnd,
      ],
      ['active', false],
    );
    // Identity's UserDeleted, as its outbox sends it (the owner's or an administrator's deletion).
    const m = outboxMessage(
      topics.identityUser,
      eventTypes.UserDeleted,
      events.UserDeleted,
      { userId },
      {
        aggregateId: userId,
        occurredAt: new Date(),
      },
    );
    await stack.bus.publish([{ topic: m.topic, key: m.key, value: Buffer.from(m.envelope), headers: {} }]);
    await waitFor(
      async () => (await call(b(), b().getSubscription, { userId })).cancelAtPeriodEnd,
      'the subscription set to end at its period',
    );
  });

  it("a deleted user's cancel is retried while the provider fails, and the event is handled only once it succeeded", async () => {
    const userId = await subscribedUser('lite_monthly');
    // The provider refuses the first call (down for a moment), as a real one can.
    const calls: string[] = [];
    const flaky = {
      async cancelAtPeriodEnd(subscriptionId: string) {
        calls.push(subscriptionId);
        if (calls.length === 1) throw new Error('the payment provider is unavailable');
      },
    } as unknown as PaymentProvider;
    const pool = stack.billingService.context.pool;
    const handle = userEventHandler(
      pool,
      createLogger('billing-delete-retry', 'silent'),
      new Subscriptions(pool, flaky, 'http://localhost:8080'),
    );
    const m = outboxMessage(
      topics.identityUser,
      eventTypes.UserDeleted,
      events.UserDeleted,
      { userId },
      { aggregateId: userId, occurredAt: new Date() },
    );
    const delivery = {
      topic: m.topic,
      key: m.key,
      value: Buffer.from(m.envelope),
      headers: {},
      partition: 0,
      offset: 0,
    };
    await assert.rejects(handle(delivery), /unavailable/, 'the failure reaches the consumer, which delivers again');
    const handledYet = async () =>
      (await pool.query('SELECT 1 FROM inbox WHERE event_id = $1', [m.eventId])).rowCount === 1;
    assert.equal(await handledYet(), false, 'not marked handled while the provider failed');
    assert.equal((await call(b(), b().getSubscription, { userId })).cancelAtPeriodEnd, false);
    // The redelivery: the provider answers, the subscription ends at its period, the event is handled.
    await handle(delivery);
    assert.equal(calls.length, 2);
    assert.equal((await call(b(), b().getSubscription, { userId })).cancelAtPeriodEnd, true);
    assert.equal(await handledYet(), true);
    // A later duplicate changes nothing and calls the provider no more.
    await handle(delivery);
    assert.equal(calls.length, 2);
  });

  it('mails a receipt for a token pack and for a subscription, to the address identity told billing', async () => {
    const userId = randomUUID();
    const email = `receipt.${userId.slice(0, 8)}@example.com`;
    await call(stack.ledger!, stack.ledger!.openAccount, { userId });
    // Identity's UserRegistered, as its outbox sends it: billing keeps the address.
    const registered = outboxMessage(
      topics.identityUser,
      eventTypes.UserRegistered,
      events.UserRegistered,
      { userId, email, method: 'password' },
      { aggregateId: userId, occurredAt: new Date() },
    );
    await stack.bus.publish([
      { topic: registered.topic, key: registered.key, value: Buffer.from(registered.envelope), headers: {} },
    ]);
    const pool = stack.billingService.context.pool;
    await waitFor(
      async () => (await pool.query('SELECT 1 FROM user_contacts WHERE user_id = $1', [userId])).rowCount === 1,
      'the address kept',
    );
    const pay = async (fields: { priceId?: string; plan?: string; productType: string }) => {
      const { url } = await checkout(userId, fields);
      const sessionId = sessionOf(url);
      const csrfToken = csrfOf((await call(b(), b().renderLocalCheckout, { sessionId })).html);
      await call(b(), b().submitLocalCheckout, { sessionId, action: 'pay', csrfToken });
    };
    await pay({ priceId: 'price_main_pack', productType: 'payment' });
    const [pack] = await waitForMail(email, 'Your Flatlay receipt');
    const main = catalogue.config.token_packs.find((p) => p.price_id === 'price_main_pack')!;
    assert.ok(pack!.text.includes(`(${main.tokens} tokens): ${(main.amount / 100).toFixed(2)} USD`), pack!.text);
    await pay({ plan: 'lite_monthly', productType: 'subscription' });
    const both = await waitForMail(email, 'Your Flatlay receipt', 2);
    assert.match(both[1]!.subject, /plan \(monthly\)/);
    assert.match(both[1]!.text, /\d+\.\d{2} USD/);
  });

  it('mails a guest the link to their paid result when the provider has their address, and nothing when it has none', async () => {
    const guestPays = async (email: string) => {
      const enhancementId = randomUUID();
      const { sessionId } = await call(b(), b().createAnonymousPayment, {
        enhancementId,
        successUrl: '/',
        cancelUrl: '/',
        email,
        idempotencyKey: '',
      });
      const csrfToken = csrfOf((await call(b(), b().renderLocalCheckout, { sessionId })).html);
      await call(b(), b().submitLocalCheckout, { sessionId, action: 'pay', csrfToken });
      return enhancementId;
    };
    const email = `guest.${randomUUID().slice(0, 8)}@example.com`;
    const enhancementId = await guestPays(email);
    const [mail] = await waitForMail(email, 'Your Flatlay image is unlocked');
    assert.ok(
      mail!.text.includes(`http://localhost:8080/?payment=success&enhancement_id=${enhancementId}`),
      mail!.text,
    );
    // No address given: the payment is recorded, and no message is queued for it.
    const silent = await guestPays('');
    const pool = stack.billingService.context.pool;
    await waitFor(
      async () => (await pool.query('SELECT 1 FROM payments WHERE enhancement_id = $1', [silent])).rowCount === 1,
      'the silent payment recorded',
    );
    const { rows } = await pool.query(
      "SELECT count(*)::int AS n FROM mail_outbox WHERE params->>'enhancementId' = $1",
      [silent],
    );
    assert.equal(rows[0].n, 0);
  });
});
