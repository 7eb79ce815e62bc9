import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type AppError, call } from '@flatlay/platform';
import { ledger } from '@flatlay/proto';
import { requireEnv, waitFor as waitForShort } from '../../platform/test/support.js';
import {
  chargeRefunded,
  checkoutCompleted,
  dispute,
  invoice,
  legacyInvoice,
  signed,
  subscriptionObject,
  threeTimesOutOfOrder,
  type SignedEvent,
} from './support/stripe-events.js';
import { startStack, type Stack } from './support/stack.js';

const secret = 'whsec_test_billing_stripe_mock';
// The stack's consumers read its own topics only (a fresh namespace, ADR 0010), never the run's
// history: a delivery slower than this is a fault to find, not to wait out.
const waitFor = (condition: () => Promise<boolean>, message: string) => waitForShort(condition, message, 60_000);
const day = 86_400_000;

describe('billing on Stripe (stripe-mock), webhooks to the ledger and identity over Kafka', {
  timeout: 400_000,
}, () => {
  let stack: Stack;
  // Billing's Stripe calls pass through this recorder on their way to stripe-mock (which keeps no
  // state, so what reached "Stripe" is read here): method, path and Idempotency-Key of each.
  const stripeCalls: Array<{ method: string; path: string; idempotencyKey: string }> = [];
  let recorder: Server;
  const startRecorder = async (target: URL) => {
    recorder = createServer((req, res) => {
      stripeCalls.push({
        method: req.method ?? '',
        path: req.url ?? '',
        idempotencyKey: String(req.headers['idempotency-key'] ?? ''),
      });
      const upstream = request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
    await new Promise<void>((ok) => recorder.listen(0, '127.0.0.1', ok));
    return `http://127.0.0.1:${(recorder.address() as AddressInfo).port}`;
  };

  beforeAll(async () => {
    const stripeApi = await startRecorder(new URL(requireEnv('STRIPE_MOCK_URL')));
    stack = await startStack({
      withLedger: true,
      withIdentity: true,
      billing: {
        env: {
          STRIPE_SECRET_KEY: 'sk_test_flatlay',
          STRIPE_PUBLISHABLE_KEY: 'pk_test_flatlay',
          STRIPE_WEBHOOK_SECRET: secret,
          STRIPE_API_URL: stripeApi,
          PUBLIC_BASE_URL: 'https://flatlay.test',
        },
      },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await new Promise((ok) => recorder?.close(ok));
  });

  const b = () => stack.billing;
  const deliver = (e: SignedEvent) => call(b(), b().handleWebhook, { payload: e.payload, signature: e.signature });
  const balanceOf = async (userId: string) => (await call(stack.ledger!, stack.ledger!.getBalance, { userId })).balance;
  const openAccount = (userId: string) => call(stack.ledger!, stack.ledger!.openAccount, { userId });
  const outboxTypes = async (key: string) =>
    (
      await stack.billingService.context.pool.query(
        'SELECT event_type FROM outbox WHERE message_key = $1 ORDER BY position',
        [key],
      )
    ).rows.map((r: { event_type: string }) => r.event_type.replace('flatlay.events.v1.', ''));
  const profileOf = async (userId: string) =>
    (await call(stack.identity!, stack.identity!.getProfile, { userId })).user!;
  /** Waits until identity's consumer has handled the user's latest subscription event from billing. */
  const identityCaughtUp = async (userId: string) => {
    const { rows } = await stack.billingService.context.pool.query(
      `SELECT event_id::text FROM outbox WHERE message_key = $1 AND topic = 'billing.subscription.v1'
       ORDER BY position DESC LIMIT 1`,
      [userId],
    );
    const latest = rows[0]?.event_id as string;
    await waitFor(
      async () =>
        (
          await stack.identityService!.context.pool.query('SELECT 1 FROM inbox WHERE consumer = $1 AND event_id = $2', [
            'identity',
            latest,
          ])
        ).rowCount === 1,
      'identity handled the latest subscription event',
    );
  };
  const rejectsWith = (promise: Promise<unknown>, code: string, message?: RegExp) =>
    assert.rejects(promise, (e: AppError) => {
      assert.equal(e.code, code);
      if (message) assert.match(e.message, message);
      return true;
    });

  it('answers the products with plans, packs and the unlock price', async () => {
    const products = await call(b(), b().listProducts, {});
    assert.deepEqual(
      products.subscriptions.map((s) => s.id),
      ['free', 'lite', 'studio'],
    );
    const studio = products.subscriptions.find((s) => s.id === 'studio')!;
    assert.equal(studio.pricing?.yearly?.amount, 38400);
    assert.equal(studio.pricing?.yearly?.savings, '$96');
    assert.ok(products.tokenPacks.some((p) => p.id === 'main_pack'));
    assert.equal(products.unlock?.amount, 500);
    assert.equal((await call(b(), b().getStripeConfig, {})).publishableKey, 'pk_test_flatlay');
  });

  it('creates Stripe checkouts for a pack, a plan key and an unlock, reusing one customer', async () => {
    const userId = randomUUID();
    const pack = await call(b(), b().createCheckoutSession, {
      userId,
      email: 'buyer@example.com',
      priceId: 'price_main_pack',
      plan: '',
      productType: 'payment',
      promoCode: '',
      idempotencyKey: '',
    });
    assert.match(pack.url, /^https:\/\/checkout\.stripe\.com\//);
    const plan = await call(b(), b().createCheckoutSession, {
      userId,
      email: '',
      priceId: '',
      plan: 'studio_yearly',
      productType: 'subscription',
      promoCode: 'FALL20',
      idempotencyKey: '',
    });
    assert.ok(plan.url);
    const unlock = await call(b(), b().createImageUnlockCheckout, {
      userId,
      email: '',
      imageId: 'img-1',
      returnUrl: 'https://flatlay.test/dashboard',
      idempotencyKey: '',
    });
    assert.ok(unlock.checkoutUrl);
    const { rows } = await stack.billingService.context.pool.query(
      'SELECT count(*)::int AS n FROM customers WHERE user_id = $1',
      [userId],
    );
    assert.equal(rows[0].n, 1);
  });

  it("sends the caller's Idempotency-Key to Stripe, scoped to the caller: one key, one checkout", async () => {
    const userId = randomUUID();
    const request = {
      userId,
      email: '',
      priceId: 'price_main_pack',
      plan: '',
      productType: 'payment',
      promoCode: '',
      idempotencyKey: 'buy-main-1',
    };
    const sessionCalls = () =>
      stripeCalls.filter((c) => c.method === 'POST' && c.path.startsWith('/v1/checkout/sessions'));
    const before = sessionCalls().length;
    const first = await call(b(), b().createCheckoutSession, request);
    const again = await call(b(), b().createCheckoutSession, request);
    await call(b(), b().createCheckoutSession, { ...request, idempotencyKey: 'buy-main-2' });
    await call(b(), b().createCheckoutSession, { ...request, userId: randomUUID() });
    const guest = { enhancementId: randomUUID(), successUrl: '/', cancelUrl: '/', email: '', idempotencyKey: 'pay-1' };
    await call(b(), b().createAnonymousPayment, guest);
    await call(b(), b().createAnonymousPayment, guest);
    const keys = sessionCalls()
      .slice(before)
      .map((c) => c.idempotencyKey);
    assert.equal(keys.length, 6);
    assert.ok(keys.every(Boolean));
    // The same key from the same caller: the same key at Stripe.
    assert.equal(keys[0], keys[1]);
    assert.equal(keys[4], keys[5]);
    // Another key, or another caller with the same key: another request.
    assert.equal(new Set([keys[0], keys[2], keys[3], keys[4]]).size, 4);
    assert.match(keys[0]!, new RegExp(`^checkout:token_pack:${userId}:`));
    // stripe-mock keeps no state (each answer has a new id); Stripe answers a repeated key with the
    // first request's session. Both answers here are Stripe checkout pages.
    assert.deepEqual(
      [first.url.startsWith('https://checkout.stripe.com/'), again.url.startsWith('https://checkout.stripe.com/')],
      [true, true],
    );
  });

  it('refuses unknown products, plans and foreign return addresses', async () => {
    const base = {
      userId: randomUUID(),
      email: '',
      priceId: '',
      plan: '',
      productType: 'payment',
      promoCode: '',
      idempotencyKey: '',
    };
    await rejectsWith(
      call(b(), b().createCheckoutSession, { ...base, priceId: 'price_nope' }),
      'INVALID_ARGUMENT',
      /^Product not available\. Please refresh and try again\.$/,
    );
    await rejectsWith(
      call(b(), b().createCheckoutSession, { ...base, priceId: 'price_lite_monthly', productType: 'payment' }),
      'INVALID_ARGUMENT',
      /Product not available/,
    );
    await rejectsWith(
      call(b(), b().createCheckoutSession, { ...base, plan: 'gold_monthly', productType: 'subscription' }),
      'INVALID_ARGUMENT',
      /^Invalid Plan$/,
    );
    await rejectsWith(
      call(b(), b().createAnonymousPayment, {
        enhancementId: 'enh-1',
        successUrl: 'https://evil.example/ok',
        cancelUrl: 'https://flatlay.test/',
        email: '',
        idempotencyKey: '',
      }),
      'INVALID_ARGUMENT',
    );
    const guest = await call(b(), b().createAnonymousPayment, {
      enhancementId: 'enh-1',
      successUrl: 'https://flatlay.test/?payment=success',
      cancelUrl: 'https://flatlay.test/',
      email: 'guest@example.com',
      idempotencyKey: '',
    });
    assert.ok(guest.checkoutUrl);
    assert.equal((await call(b(), b().getAnonymousPayment, { enhancementId: 'enh-1' })).status, 'pending');
  });

  it('a key Stripe refuses answers NOT_CONFIGURED (never an outage) and creates no customer', async () => {
    // stripe-mock, like Stripe, answers 401 to a key it does not accept.
    const refused = await startStack({
      withLedger: false,
      billing: {
        env: {
          STRIPE_SECRET_KEY: 'sk_live_revoked_key',
          STRIPE_WEBHOOK_SECRET: secret,
          STRIPE_API_URL: requireEnv('STRIPE_MOCK_URL'),
          PUBLIC_BASE_URL: 'https://flatlay.test',
        },
      },
    });
    try {
      const userId = randomUUID();
      await rejectsWith(
        call(refused.billing, refused.billing.createCheckoutSession, {
          userId,
          email: 'buyer@example.com',
          priceId: 'price_main_pack',
          plan: '',
          productType: 'payment',
          promoCode: '',
          idempotencyKey: '',
        }),
        'NOT_CONFIGURED',
        /^Payment System Not Configured$/,
      );
      const { rows } = await refused.billingService.context.pool.query('SELECT 1 FROM customers WHERE user_id = $1', [
        userId,
      ]);
      assert.equal(rows.length, 0);
    } finally {
      await refused.stop();
    }
  });

  it('a bad signature is refused and changes nothing', async () => {
    const userId = randomUUID();
    const event = signed(
      'whsec_someone_else',
      'checkout.session.completed',
      checkoutCompleted({
        sessionId: `cs_${randomUUID()}`,
        mode: 'payment',
        customer: 'cus_x',
        amount: 2400,
        metadata: { user_id: userId, kind: 'token_pack', pack_id: 'main_pack', tokens: '1500' },
      }),
      new Date(),
    );
    await rejectsWith(deliver(event), 'INVALID_ARGUMENT', /signature/);
    await rejectsWith(
      call(b(), b().handleWebhook, { payload: Buffer.from('{}'), signature: event.signature }),
      'INVALID_ARGUMENT',
    );
    const { rows } = await stack.billingService.context.pool.query('SELECT 1 FROM webhook_events WHERE event_id = $1', [
      event.id,
    ]);
    assert.equal(rows.length, 0);
    assert.deepEqual(await outboxTypes(userId), []);
  });

  it('credits a pack once when its events arrive three times and out of order', async () => {
    const userId = randomUUID();
    await openAccount(userId);
    const pack = (sessionId: string, packId: string, tokens: number, at: Date) =>
      signed(
        secret,
        'checkout.session.completed',
        checkoutCompleted({
          sessionId,
          mode: 'payment',
          customer: 'cus_pack',
          paymentIntent: `pi_${sessionId}`,
          amount: 2400,
          metadata: { user_id: userId, kind: 'token_pack', pack_id: packId, tokens: String(tokens) },
        }),
        at,
      );
    const now = Date.now();
    const events = [
      pack('cs_a', 'main_pack', 1500, new Date(now)),
      pack('cs_b', 'starter_pack', 500, new Date(now + 1000)),
    ];
    const deliveries = threeTimesOutOfOrder(events);
    // Half of them at once, so two deliveries of one event race each other.
    await Promise.all(deliveries.slice(0, 4).map(deliver));
    for (const e of deliveries.slice(4)) await deliver(e);
    assert.deepEqual(await outboxTypes(userId), ['PaymentSucceeded', 'PaymentSucceeded']);
    await waitFor(async () => (await balanceOf(userId)) >= 2200, 'both packs credited');
    // A later payment on the same key and topic: once it is credited, every duplicate before it was handled.
    await deliver(pack('cs_sentinel', 'starter_pack', 500, new Date(now + 2000)));
    await waitFor(async () => (await balanceOf(userId)) >= 2700, 'sentinel credited');
    assert.equal(await balanceOf(userId), 200 + 1500 + 500 + 500);
  });

  it('grants a plan once per paid period, whatever the order and number of deliveries', async () => {
    const userId = randomUUID();
    await openAccount(userId);
    const sub = `sub_${randomUUID().slice(0, 8)}`;
    const meta = { user_id: userId, plan: 'lite', billing_period: 'monthly' };
    const t0 = new Date(Date.UTC(2026, 0, 1));
    const t1 = new Date(t0.getTime() + 31 * day);
    const t2 = new Date(t1.getTime() + 28 * day);
    const t3 = new Date(t2.getTime() + 31 * day);
    const common = { subscription: sub, customer: 'cus_sub', priceId: 'price_lite_monthly', metadata: meta };
    const events = [
      signed(
        secret,
        'checkout.session.completed',
        checkoutCompleted({
          sessionId: `cs_${sub}`,
          mode: 'subscription',
          customer: 'cus_sub',
          subscription: sub,
          amount: 2400,
          metadata: { ...meta, kind: 'subscription' },
        }),
        t0,
      ),
      signed(secret, 'invoice.paid', invoice({ ...common, start: t0, end: t1, reason: 'subscription_create' }), t0),
      signed(
        secret,
        'customer.subscription.updated',
        subscriptionObject({ ...common, status: 'active', cancelAtPeriodEnd: false, start: t0, end: t1 }),
        new Date(t0.getTime() + 1000),
      ),
      // The renewal in the older API shape: both are read.
      signed(
        secret,
        'invoice.paid',
        legacyInvoice({ ...common, start: t1, end: t2, reason: 'subscription_cycle' }),
        t1,
      ),
    ];
    for (const e of threeTimesOutOfOrder(events)) await deliver(e);
    const grants = (await outboxTypes(userId)).filter(
      (t) => t === 'SubscriptionActivated' || t === 'SubscriptionRenewed',
    );
    assert.deepEqual(grants.sort(), ['SubscriptionActivated', 'SubscriptionRenewed']);
    const status = await call(b(), b().getSubscription, { userId });
    assert.deepEqual(
      { ...status },
      {
        hasSubscription: true,
        subscriptionPlan: 'lite',
        status: 'active',
        cancelAtPeriodEnd: false,
        currentPeriodEnd: Math.floor(t2.getTime() / 1000),
        billingPeriod: 'monthly',
      },
    );
    await waitFor(async () => (await balanceOf(userId)) >= 200 + 2 * 1700, 'two periods granted');
    // The third period is the sentinel: once granted, the duplicates before it were all handled.
    await deliver(
      signed(secret, 'invoice.paid', invoice({ ...common, start: t2, end: t3, reason: 'subscription_cycle' }), t2),
    );
    await waitFor(async () => (await balanceOf(userId)) >= 200 + 3 * 1700, 'third period granted');
    assert.equal(await balanceOf(userId), 200 + 3 * 1700);
  });

  it('a failed renewal makes the subscription past_due; cancelling keeps the plan until the period ends', async () => {
    const userId = randomUUID();
    const sub = `sub_${randomUUID().slice(0, 8)}`;
    const meta = { user_id: userId, plan: 'studio', billing_period: 'monthly' };
    const t0 = new Date(Date.UTC(2026, 2, 1));
    const t1 = new Date(t0.getTime() + 31 * day);
    const common = { subscription: sub, customer: `cus_${sub}`, priceId: 'price_studio_monthly', metadata: meta };
    await deliver(
      signed(
        secret,
        'checkout.session.completed',
        checkoutCompleted({
          sessionId: `cs_${sub}`,
          mode: 'subscription',
          customer: common.customer,
          subscription: sub,
          amount: 4000,
          metadata: { ...meta, kind: 'subscription' },
        }),
        t0,
      ),
    );
    await deliver(
      signed(secret, 'invoice.paid', invoice({ ...common, start: t0, end: t1, reason: 'subscription_create' }), t0),
    );
    const failed = signed(
      secret,
      'invoice.payment_failed',
      invoice({ ...common, start: t1, end: new Date(t1.getTime() + 30 * day), reason: 'subscription_cycle' }),
      t1,
    );
    await deliver(failed);
    await deliver(failed);
    assert.equal((await call(b(), b().getSubscription, { userId })).status, 'past_due');

    // Paid after all: active again, and the user cancels at the period's end.
    const t2 = new Date(t1.getTime() + 30 * day);
    await deliver(
      signed(
        secret,
        'invoice.paid',
        invoice({ ...common, start: t1, end: t2, reason: 'subscription_cycle' }),
        new Date(t1.getTime() + 3600_000),
      ),
    );
    assert.equal((await call(b(), b().getSubscription, { userId })).status, 'active');
    const cancelled = await call(b(), b().cancelSubscription, { userId });
    assert.match(cancelled.message, /end of the current billing period/);
    const afterCancel = await call(b(), b().getSubscription, { userId });
    assert.deepEqual(
      [afterCancel.hasSubscription, afterCancel.status, afterCancel.cancelAtPeriodEnd],
      [true, 'active', true],
    );
    // Stripe confirms; the plan stays until the period ends, then the subscription is deleted.
    await deliver(
      signed(
        secret,
        'customer.subscription.updated',
        subscriptionObject({ ...common, status: 'active', cancelAtPeriodEnd: true, start: t1, end: t2 }),
        new Date(t1.getTime() + 7200_000),
      ),
    );
    assert.equal((await call(b(), b().getSubscription, { userId })).status, 'active');
    await deliver(
      signed(
        secret,
        'customer.subscription.deleted',
        subscriptionObject({ ...common, status: 'canceled', cancelAtPeriodEnd: false, start: t1, end: t2 }),
        t2,
      ),
    );
    const ended = await call(b(), b().getSubscription, { userId });
    assert.deepEqual([ended.hasSubscription, ended.status], [false, 'canceled']);
    assert.deepEqual(await outboxTypes(userId), [
      'SubscriptionActivated',
      'SubscriptionStatusChanged', // past_due
      'SubscriptionRenewed',
      'SubscriptionStatusChanged', // cancel at period end
      'SubscriptionStatusChanged', // canceled
      'SubscriptionCanceled',
    ]);
    const portal = await call(b(), b().createPortalSession, { userId });
    assert.ok(portal.url);
  });

  it("identity's profile follows: past_due after a failed invoice, the plan kept until a cancelled period ends", async () => {
    const email = `subscriber.${randomUUID().slice(0, 8)}@example.com`;
    const registered = await call(stack.identity!, stack.identity!.register, {
      email,
      password: 'long enough please',
    });
    const userId = registered.user!.id;
    const sub = `sub_${randomUUID().slice(0, 8)}`;
    const customer = `cus_${sub}`;
    const meta = { user_id: userId, plan: 'studio', billing_period: 'monthly' };
    // Periods in the future, as a live subscription's are: the profile's plan runs until the end.
    const t0 = new Date(Math.floor(Date.now() / 1000) * 1000 - 5 * day);
    const t1 = new Date(t0.getTime() + 30 * day);
    const t2 = new Date(t1.getTime() + 30 * day);
    const common = { subscription: sub, customer, priceId: 'price_studio_monthly', metadata: meta };
    const started = [
      signed(
        secret,
        'checkout.session.completed',
        checkoutCompleted({
          sessionId: `cs_${sub}`,
          mode: 'subscription',
          customer,
          subscription: sub,
          amount: 4000,
          metadata: { ...meta, kind: 'subscription' },
        }),
        t0,
      ),
      signed(secret, 'invoice.paid', invoice({ ...common, start: t0, end: t1, reason: 'subscription_create' }), t0),
    ];
    for (const e of threeTimesOutOfOrder(started)) await deliver(e);
    await identityCaughtUp(userId);
    const active = await profileOf(userId);
    assert.deepEqual(
      [active.subscriptionPlan, active.subscriptionStatus, active.stripeSubscriptionId],
      ['studio', 'active', sub],
    );

    // The renewal fails: past_due on the profile, the plan still named.
    const failed = signed(
      secret,
      'invoice.payment_failed',
      invoice({ ...common, start: t1, end: t2, reason: 'subscription_cycle' }),
      t1,
    );
    for (const e of [failed, failed, failed]) await deliver(e);
    await identityCaughtUp(userId);
    const pastDue = await profileOf(userId);
    assert.deepEqual([pastDue.subscriptionPlan, pastDue.subscriptionStatus], ['studio', 'past_due']);

    // Paid after all, then cancelled at the period's end: the plan stays on the profile until then.
    await deliver(
      signed(
        secret,
        'invoice.paid',
        invoice({ ...common, start: t1, end: t2, reason: 'subscription_cycle' }),
        new Date(t1.getTime() + 3600_000),
      ),
    );
    await call(b(), b().cancelSubscription, { userId });
    const cancelling = signed(
      secret,
      'customer.subscription.updated',
      subscriptionObject({ ...common, status: 'active', cancelAtPeriodEnd: true, start: t1, end: t2 }),
      new Date(t1.getTime() + 7200_000),
    );
    for (const e of [cancelling, cancelling, cancelling]) await deliver(e);
    await identityCaughtUp(userId);
    const cancelled = await profileOf(userId);
    assert.deepEqual(
      [cancelled.subscriptionPlan, cancelled.subscriptionStatus, cancelled.subscriptionPeriodEnd?.getTime()],
      ['studio', 'active', t2.getTime()],
    );
    assert.equal((await call(b(), b().getSubscription, { userId })).cancelAtPeriodEnd, true);

    // The period ends: Stripe deletes the subscription and the plan goes.
    await deliver(
      signed(
        secret,
        'customer.subscription.deleted',
        subscriptionObject({ ...common, status: 'canceled', cancelAtPeriodEnd: false, start: t1, end: t2 }),
        t2,
      ),
    );
    await identityCaughtUp(userId);
    const ended = await profileOf(userId);
    assert.deepEqual([ended.subscriptionPlan, ended.subscriptionStatus], ['none', 'canceled']);
  });

  it('a refunded pack takes back only its unspent tokens, once; a partial refund takes none', async () => {
    const userId = randomUUID();
    await openAccount(userId);
    const buy = (sessionId: string, packId: string, tokens: number, at: Date) =>
      signed(
        secret,
        'checkout.session.completed',
        checkoutCompleted({
          sessionId,
          mode: 'payment',
          customer: 'cus_refund',
          paymentIntent: `pi_${sessionId}`,
          amount: 2400,
          metadata: { user_id: userId, kind: 'token_pack', pack_id: packId, pack_name: 'Main', tokens: String(tokens) },
        }),
        at,
      );
    const now = Date.now();
    const sessionId = `cs_${randomUUID().slice(0, 8)}`;
    await deliver(buy(sessionId, 'main_pack', 1500, new Date(now)));
    await waitFor(async () => (await balanceOf(userId)) === 1700, 'pack credited');
    // Eight images enhanced: 800 of the 1700 tokens spent.
    for (let i = 0; i < 8; i++)
      await call(stack.ledger!, stack.ledger!.spend, {
        userId,
        imageId: `img-${i}`,
        purpose: ledger.SpendPurpose.SPEND_PURPOSE_ENHANCEMENT,
      });
    const partial = signed(
      secret,
      'charge.refunded',
      chargeRefunded({ paymentIntent: `pi_${sessionId}`, amount: 2400, refunded: 500 }),
      new Date(now + 1000),
    );
    await deliver(partial);
    const full = signed(
      secret,
      'charge.refunded',
      chargeRefunded({ paymentIntent: `pi_${sessionId}`, amount: 2400 }),
      new Date(now + 2000),
    );
    for (const e of [full, full, full]) await deliver(e);
    assert.deepEqual(await outboxTypes(userId), ['PaymentSucceeded', 'PaymentRefunded']);
    await waitFor(async () => (await balanceOf(userId)) === 0, 'unspent tokens taken back');
    // A later pack is the sentinel: once credited, nothing before it is left to handle.
    await deliver(buy(`cs_${randomUUID().slice(0, 8)}`, 'starter_pack', 500, new Date(now + 3000)));
    await waitFor(async () => (await balanceOf(userId)) > 0, 'sentinel credited');
    assert.equal(await balanceOf(userId), 500);
    const history = await call(stack.ledger!, stack.ledger!.listTransactions, { userId, limit: 20 });
    assert.ok(history.transactions.some((t) => t.description === 'Main pack refunded' && t.amount === -900));
  });

  describe('chargebacks (charge.dispute.*) are taken back like refunds, and recorded', () => {
    const buyPack = async (userId: string, at: Date) => {
      const sessionId = `cs_${randomUUID().slice(0, 8)}`;
      await deliver(
        signed(
          secret,
          'checkout.session.completed',
          checkoutCompleted({
            sessionId,
            mode: 'payment',
            customer: 'cus_dispute',
            paymentIntent: `pi_${sessionId}`,
            amount: 2400,
            metadata: { user_id: userId, kind: 'token_pack', pack_id: 'main_pack', pack_name: 'Main', tokens: '1500' },
          }),
          at,
        ),
      );
      return { sessionId, paymentIntent: `pi_${sessionId}` };
    };
    const disputeEvent = (type: string, o: Parameters<typeof dispute>[0], at: Date) =>
      signed(secret, type, dispute(o), at);
    const disputeRows = async (paymentId: string) =>
      (
        await stack.billingService.context.pool.query(
          'SELECT dispute_id, status, reason, amount_cents FROM disputes WHERE payment_id = $1',
          [paymentId],
        )
      ).rows;
    /** A later pack is the sentinel: once credited, everything published before it was handled. */
    const sentinel = async (userId: string, at: Date, before: number) => {
      await deliver(
        signed(
          secret,
          'checkout.session.completed',
          checkoutCompleted({
            sessionId: `cs_${randomUUID().slice(0, 8)}`,
            mode: 'payment',
            customer: 'cus_dispute',
            paymentIntent: `pi_${randomUUID().slice(0, 8)}`,
            amount: 900,
            metadata: { user_id: userId, kind: 'token_pack', pack_id: 'starter_pack', tokens: '500' },
          }),
          at,
        ),
      );
      await waitFor(async () => (await balanceOf(userId)) === before + 500, 'sentinel credited');
    };

    it("a disputed pack's unspent tokens are taken back once, however often and in whatever stage the dispute comes", async () => {
      const userId = randomUUID();
      await openAccount(userId);
      const now = Date.now();
      const { sessionId, paymentIntent } = await buyPack(userId, new Date(now));
      await waitFor(async () => (await balanceOf(userId)) === 1700, 'pack credited');
      for (let i = 0; i < 8; i++)
        await call(stack.ledger!, stack.ledger!.spend, {
          userId,
          imageId: `img-${i}`,
          purpose: ledger.SpendPurpose.SPEND_PURPOSE_ENHANCEMENT,
        });
      const dp = { id: `dp_${randomUUID().slice(0, 8)}`, paymentIntent, amount: 2400 };
      const opened = disputeEvent('charge.dispute.created', { ...dp, status: 'needs_response' }, new Date(now + 1000));
      for (const e of [opened, opened, opened]) await deliver(e);
      await deliver(
        disputeEvent('charge.dispute.funds_withdrawn', { ...dp, status: 'needs_response' }, new Date(now + 2000)),
      );
      await deliver(disputeEvent('charge.dispute.closed', { ...dp, status: 'lost' }, new Date(now + 3000)));
      assert.deepEqual(await outboxTypes(userId), [
        'PaymentSucceeded',
        'PaymentRefunded',
        'PaymentDisputed',
        'PaymentDisputed',
      ]);
      await waitFor(async () => (await balanceOf(userId)) === 0, 'unspent tokens taken back');
      await sentinel(userId, new Date(now + 4000), 0);
      assert.deepEqual(await disputeRows(sessionId), [
        { dispute_id: dp.id, status: 'lost', reason: 'fraudulent', amount_cents: 2400 },
      ]);
      const history = await call(stack.ledger!, stack.ledger!.listTransactions, { userId, limit: 20 });
      assert.equal(history.transactions.filter((t) => t.amount === -900).length, 1, 'taken back once');
    });

    it("a disputed plan payment reverses that period's grant once, as far as its tokens are unspent", async () => {
      const userId = randomUUID();
      await openAccount(userId);
      const sub = `sub_${randomUUID().slice(0, 8)}`;
      const paymentIntent = `pi_${randomUUID().slice(0, 8)}`;
      const meta = { user_id: userId, plan: 'lite', billing_period: 'monthly' };
      const common = { subscription: sub, customer: 'cus_dispute', priceId: 'price_lite_monthly', metadata: meta };
      const t0 = new Date(Date.UTC(2026, 2, 1));
      const t1 = new Date(t0.getTime() + 31 * day);
      const paid = invoice({ ...common, start: t0, end: t1, reason: 'subscription_create', paymentIntent });
      await deliver(signed(secret, 'invoice.paid', paid, t0));
      await waitFor(async () => (await balanceOf(userId)) === 200 + 1700, 'the period granted');
      for (let i = 0; i < 18; i++)
        await call(stack.ledger!, stack.ledger!.spend, {
          userId,
          imageId: `img-${i}`,
          purpose: ledger.SpendPurpose.SPEND_PURPOSE_ENHANCEMENT,
        });
      const dp = { id: `dp_${randomUUID().slice(0, 8)}`, paymentIntent, amount: 900 };
      const opened = disputeEvent(
        'charge.dispute.created',
        { ...dp, status: 'needs_response' },
        new Date(t0.getTime() + day),
      );
      await deliver(opened);
      await deliver(opened);
      await deliver(
        disputeEvent(
          'charge.dispute.funds_withdrawn',
          { ...dp, status: 'needs_response' },
          new Date(t0.getTime() + 2 * day),
        ),
      );
      await deliver(disputeEvent('charge.dispute.closed', { ...dp, status: 'lost' }, new Date(t0.getTime() + 3 * day)));
      assert.deepEqual(await outboxTypes(userId), [
        'SubscriptionActivated',
        'PlanPeriodReversed',
        'PaymentDisputed',
        'PaymentDisputed',
      ]);
      await waitFor(async () => (await balanceOf(userId)) === 0, 'the unspent 100 tokens taken back');
      // The next period (older API shape) is the sentinel: once granted, the reversal before it was handled once.
      await deliver(
        signed(
          secret,
          'invoice.paid',
          legacyInvoice({ ...common, start: t1, end: new Date(t1.getTime() + 30 * day), reason: 'subscription_cycle' }),
          t1,
        ),
      );
      await waitFor(async () => (await balanceOf(userId)) === 1700, 'the next period granted');
      const history = await call(stack.ledger!, stack.ledger!.listTransactions, { userId, limit: 30 });
      assert.deepEqual(
        history.transactions
          .filter((t) => t.description.includes('reversed'))
          .map((t) => [t.description, t.amount, t.balanceAfter]),
        [['Lite plan (monthly) reversed: payment disputed', -100, 0]],
      );
      const { rows } = await stack.billingService.context.pool.query(
        'SELECT payment_id, invoice_id, status FROM disputes WHERE dispute_id = $1',
        [dp.id],
      );
      assert.deepEqual(rows, [{ payment_id: null, invoice_id: paid.id, status: 'lost' }]);
    });

    it('a dispute after a refund takes nothing more, and is still recorded', async () => {
      const userId = randomUUID();
      await openAccount(userId);
      const now = Date.now();
      const { sessionId, paymentIntent } = await buyPack(userId, new Date(now));
      await waitFor(async () => (await balanceOf(userId)) === 1700, 'pack credited');
      await deliver(
        signed(secret, 'charge.refunded', chargeRefunded({ paymentIntent, amount: 2400 }), new Date(now + 1000)),
      );
      const dp = {
        id: `dp_${randomUUID().slice(0, 8)}`,
        paymentIntent,
        amount: 2400,
        status: 'warning_needs_response',
      };
      await deliver(disputeEvent('charge.dispute.created', dp, new Date(now + 2000)));
      assert.deepEqual(await outboxTypes(userId), ['PaymentSucceeded', 'PaymentRefunded', 'PaymentDisputed']);
      await waitFor(async () => (await balanceOf(userId)) === 200, 'the refund took the pack back');
      await sentinel(userId, new Date(now + 3000), 200);
      assert.equal((await disputeRows(sessionId)).length, 1);
    });
  });

  it('a refund that arrives before its payment is applied when the payment comes', async () => {
    const userId = randomUUID();
    const sessionId = `cs_${randomUUID().slice(0, 8)}`;
    const now = Date.now();
    await deliver(
      signed(
        secret,
        'charge.refunded',
        chargeRefunded({ paymentIntent: `pi_${sessionId}`, amount: 900 }),
        new Date(now + 1000),
      ),
    );
    await deliver(
      signed(
        secret,
        'checkout.session.completed',
        checkoutCompleted({
          sessionId,
          mode: 'payment',
          customer: 'cus_early',
          paymentIntent: `pi_${sessionId}`,
          amount: 900,
          metadata: { user_id: userId, kind: 'token_pack', pack_id: 'starter_pack', tokens: '500' },
        }),
        new Date(now),
      ),
    );
    assert.deepEqual(await outboxTypes(userId), ['PaymentSucceeded', 'PaymentRefunded']);
  });
});
