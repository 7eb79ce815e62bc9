// Billing through the gateway on real Postgres and Kafka: the real identity, ledger, image and
// billing services (the local payment provider, its webhook secret set), one generation worker on
// a fake engine. The routes and their refusals, Stripe-signed webhooks, the local checkout page
// driven over HTTP, a locked image unlocked by payment, and a deleted user's customer mapping.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { signWebhook } from '@flatlay/billing';
import { waitFor } from '../../services/platform/test/support.js';
import { openForm, pay, submit } from './support/local-checkout.js';
import { startStack, type Stack, type TokenBody, type TransactionsBody, type UserBody } from './support/stack.js';
import { instantEngine } from '../../services/image/test/support/instant-engine.js';
import { EngineError } from '../../services/image/src/engine/errors.js';
import type { EnhanceEngine } from '../../services/image/src/app/generation-worker.js';
import { ProductsBody } from '../src/routes/payments-catalogue.js';

const photo = await readFile(new URL('../../services/image/test/fixtures/top_floor_01.jpg', import.meta.url));
const WEBHOOK_SECRET = `whsec_test_${randomUUID().replaceAll('-', '')}`;
const PRODUCT_NOT_AVAILABLE = 'Product not available. Please refresh and try again.';

/** The instant engine, held while `held` is pending (a try stays processing), or failing a photo when asked. */
let held: Promise<void> | undefined;
let failNext = false;
const engine: EnhanceEngine = {
  ...instantEngine,
  async enhance(...args: Parameters<EnhanceEngine['enhance']>) {
    if (failNext) {
      failNext = false;
      throw new EngineError('CORRUPT_IMAGE', 'not a photo (test)');
    }
    await held;
    return instantEngine.enhance(...args);
  },
};

interface Products {
  subscriptions: Array<{
    id: string;
    pricing: { monthly: { price_id: string | null; amount: number; savings: string | null } };
  }>;
  token_packs: Array<{ id: string; price_id: string; tokens: number; product_type: string; per_image_cost: number }>;
  unlock: { amount: number; currency: string };
}
interface ImageJson {
  id: string;
  status: string;
  is_locked: boolean;
  processed_url: string | null;
}

describe('billing through the gateway', { timeout: 600_000 }, () => {
  let s: Stack;
  const billingPool = () => s.services.find((x) => x.name === 'billing')!.context.pool;
  const balanceOf = async (token: string) =>
    (await s.request<{ balance: number }>('GET', '/tokens/balance', { token })).body.balance;
  /** The caller's credits of this many tokens (the sign-up grant may land before or after them). */
  const creditsOf = async (token: string, tokens: number) =>
    (await s.request<TransactionsBody>('GET', '/tokens/', { token })).body.transactions.filter(
      (t) => t.amount === tokens,
    ).length;
  const webhook = (payload: string, signature?: string) =>
    fetch(`${s.base}/api/webhooks/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
      body: payload,
    });
  const generate = async (token: string) => {
    const form = new FormData();
    form.append('file', new Blob([photo]), 'photo.jpg');
    form.append('enhancement_type', 'tops');
    const res = await s.request<{ id: string; is_locked: boolean }>('POST', '/images/generate', {
      token,
      multipart: form,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };

  /** A guest's try; `until`: wait for that status (pending_payment: made and locked, ready to pay for). */
  const guestTry = async (until?: string) => {
    const guest = new FormData();
    guest.append('file', new Blob([photo]), 'photo.jpg');
    guest.append('email', 'guest@example.com');
    const tried = await s.request<{ enhancement_id: string }>('POST', '/images/anonymous/generate', {
      multipart: guest,
    });
    assert.equal(tried.status, 200, JSON.stringify(tried.body));
    const id = tried.body.enhancement_id;
    if (until)
      await waitFor(
        async () =>
          (await s.request<{ status: string }>('GET', `/payments/anonymous-enhancement/${id}`)).body.status === until,
        `the try ${until}`,
        60_000,
      );
    return id;
  };

  beforeAll(async () => {
    s = await startStack('billing-gateway-test', undefined, {
      image: { engine },
      billing: { env: { LOCAL_WEBHOOK_SECRET: WEBHOOK_SECRET } },
    });
  }, 180_000);
  afterAll(async () => s?.stop());

  it('answers the catalogue and a local publishable key to anyone', async () => {
    const products = await s.request<Products>('GET', '/payments/products');
    assert.equal(products.status, 200);
    const main = products.body.token_packs.find((p) => p.id === 'main_pack');
    assert.ok(main && main.product_type === 'payment' && main.tokens > 0);
    const studio = products.body.subscriptions.find((p) => p.id === 'studio');
    assert.deepEqual(studio?.pricing.monthly, { ...studio?.pricing.monthly, amount: 4000 });
    assert.deepEqual([products.body.unlock.amount, products.body.unlock.currency], [500, 'usd']);
    // The catalogue travels as messages now: the answer is exactly what the document declares,
    // with a free plan's price id and a monthly saving as null (not the message's "").
    assert.equal(ProductsBody.strict().safeParse(products.body).success, true);
    const free = products.body.subscriptions.find((p) => p.id === 'free');
    assert.deepEqual(
      [free?.pricing.monthly.price_id, studio?.pricing.monthly.savings, typeof main.per_image_cost],
      [null, null, 'number'],
    );
    const config = await s.request<{ publishableKey: string }>('GET', '/stripe/config');
    assert.equal(config.status, 200);
    assert.match(config.body.publishableKey, /^pk_local_/);
  });

  it('refuses unknown products, plans, promo codes and foreign return addresses with the spec’s words', async () => {
    const { token } = await s.newUser('billing-refusals');
    const none = await s.request('POST', '/payments/create-checkout-session', {
      json: { price_id: 'price_main_pack', product_type: 'payment' },
    });
    assert.equal(none.status, 401);
    const unknown = await s.request('POST', '/payments/create-checkout-session', {
      token,
      json: { price_id: 'price_nothing', product_type: 'payment' },
    });
    assert.deepEqual([unknown.status, unknown.body.message], [400, PRODUCT_NOT_AVAILABLE]);
    const noPrice = await s.request('POST', '/checkout/session', { token, json: { product_type: 'payment' } });
    assert.deepEqual([noPrice.status, noPrice.body.message], [400, PRODUCT_NOT_AVAILABLE]);
    const wrongType = await s.request('POST', '/checkout/session', {
      token,
      json: { price_id: 'price_main_pack', product_type: 'subscription' },
    });
    assert.deepEqual([wrongType.status, wrongType.body.message], [400, PRODUCT_NOT_AVAILABLE]);
    const plan = await s.request('POST', '/checkout/session', {
      token,
      json: { type: 'subscription', plan: 'gold_weekly' },
    });
    assert.deepEqual([plan.status, plan.body.message], [400, 'Invalid Plan']);
    const noPlan = await s.request('POST', '/checkout/session', { token, json: { type: 'subscription' } });
    assert.deepEqual([noPlan.status, noPlan.body.message], [400, 'Invalid Plan']);
    const promo = await s.request('POST', '/payments/create-checkout-session', {
      token,
      json: { price_id: 'price_main_pack', product_type: 'payment', promo_code: 'NOPE' },
    });
    assert.equal(promo.status, 400);
    assert.match(promo.body.message, /promo code/i);

    const tried = { body: { enhancement_id: await guestTry('pending_payment') } };
    const foreign = await s.request('POST', '/payments/create-anonymous-payment', {
      json: { enhancement_id: tried.body.enhancement_id, success_url: 'https://evil.example/x', cancel_url: '/' },
    });
    assert.equal(foreign.status, 400);
    assert.match(foreign.body.message, /success_url must be an address on this site/);
    const missing = await s.request('POST', '/payments/create-anonymous-payment', {
      json: { enhancement_id: randomUUID(), success_url: '/', cancel_url: '/' },
    });
    assert.equal(missing.status, 404);
    // Not paid, no payment even started: the browser's word unlocks nothing.
    const early = await s.request('POST', `/payments/unlock-anonymous-enhancement/${tried.body.enhancement_id}`);
    assert.deepEqual([early.status, early.body.message], [409, 'No payment was started for this enhancement.']);
    // Without a subscription there is nothing to cancel; without a checkout, no billing account.
    assert.equal((await s.request('POST', '/subscription/cancel', { token })).status, 404);
    assert.equal((await s.request('POST', '/create-billing-portal', { token })).status, 404);
    const status = await s.request('GET', '/subscription/status', { token });
    assert.deepEqual(status.body, {
      hasSubscription: false,
      subscriptionPlan: null,
      status: null,
      cancelAtPeriodEnd: false,
      currentPeriodEnd: null,
      billingPeriod: null,
    });
  });

  it('an Idempotency-Key makes a retried checkout creation give back the same checkout', async () => {
    const user = await s.newUser('billing-idempotency');
    const start = (key?: string) =>
      s.request<{ url: string; message: string }>('POST', '/payments/create-checkout-session', {
        token: user.token,
        json: { price_id: 'price_main_pack', product_type: 'payment' },
        ...(key !== undefined ? { headers: { 'idempotency-key': key } } : {}),
      });
    const [a, b] = await Promise.all([start('click-1'), start('click-1')]);
    assert.deepEqual([a.status, b.status], [200, 200]);
    assert.equal(a.body.url, b.body.url);
    assert.notEqual((await start('click-2')).body.url, a.body.url);
    assert.notEqual((await start()).body.url, (await start()).body.url, 'without a key, each call is its own');
    const bad = await start('x'.repeat(256));
    assert.equal(bad.status, 400);
    assert.match(bad.body.message, /^Idempotency-Key must be 1 to 255 visible ASCII characters/);
    const id = await guestTry('pending_payment');
    const pay = () =>
      s.request<{ checkout_url: string }>('POST', '/payments/create-anonymous-payment', {
        json: { enhancement_id: id, success_url: '/', cancel_url: '/' },
        headers: { 'idempotency-key': 'pay-1' },
      });
    assert.equal((await pay()).body.checkout_url, (await pay()).body.checkout_url);
    // A started payment not confirmed yet (the provider's webhook can land after the browser
    // returns): answered at once as pending, for the browser to ask again; nothing is unlocked.
    const early = await s.request('POST', `/payments/unlock-anonymous-enhancement/${id}`);
    assert.deepEqual(
      [early.status, early.body],
      [202, { success: false, status: 'pending_payment', processed_url: null }],
    );
  });

  it('a Stripe-signed webhook credits a pack once however often it comes; a bad signature changes nothing', async () => {
    const user = await s.newUser('billing-webhook');
    const event = JSON.stringify({
      id: `evt_${randomUUID().replaceAll('-', '')}`,
      object: 'event',
      type: 'checkout.session.completed',
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: `cs_${randomUUID().replaceAll('-', '')}`,
          object: 'checkout.session',
          mode: 'payment',
          status: 'complete',
          payment_status: 'paid',
          customer: `cus_${randomUUID().slice(0, 8)}`,
          payment_intent: `pi_${randomUUID().replaceAll('-', '')}`,
          subscription: null,
          amount_total: 2400,
          currency: 'usd',
          metadata: { user_id: user.id, kind: 'token_pack', pack_id: 'main_pack', tokens: '1500' },
        },
      },
    });
    const unsigned = await webhook(event);
    assert.equal(unsigned.status, 400);
    const forged = await webhook(event, signWebhook(event, 'whsec_someone_else_entirely'));
    assert.equal(forged.status, 400);
    assert.match(((await forged.json()) as { message: string }).message, /signature/i);
    const tampered = await webhook(event.replace('1500', '9999'), signWebhook(event, WEBHOOK_SECRET));
    assert.equal(tampered.status, 400);
    const { rows: none } = await billingPool().query('SELECT count(*)::int AS n FROM payments WHERE user_id = $1', [
      user.id,
    ]);
    assert.equal(none[0].n, 0, 'a refused event wrote nothing');

    const answers = [];
    for (let i = 0; i < 3; i++) {
      const res = await webhook(event, signWebhook(event, WEBHOOK_SECRET));
      answers.push([res.status, ((await res.json()) as { duplicate: boolean }).duplicate]);
    }
    assert.deepEqual(answers, [
      [200, false],
      [200, true],
      [200, true],
    ]);
    await waitFor(async () => (await creditsOf(user.token, 1500)) > 0, 'the pack credited', 60_000);
    const history = await s.request<TransactionsBody>('GET', '/tokens/', { token: user.token });
    assert.equal(history.body.transactions.filter((t) => t.amount === 1500).length, 1, 'credited once');
  });

  it('the local checkout page: a wrong CSRF token is refused; Pay credits the pack once and goes to the success page', async () => {
    const user = await s.newUser('billing-local');
    const started = await s.request<{ url: string }>('POST', '/payments/create-checkout-session', {
      token: user.token,
      json: { price_id: 'price_main_pack', product_type: 'payment' },
    });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    assert.match(new URL(started.body.url).pathname, /^\/checkout\/local\/cs_/);
    const form = await openForm(s.base, started.body.url);
    assert.match(form.html, /Main pack/);
    const forged = await submit(form, 'pay', 'not-the-token');
    assert.equal(forged.status, 403);
    assert.match(forged.body, /This form has expired/);
    const paid = await pay(s.base, started.body.url);
    assert.equal(`${paid.pathname}${paid.search}`, '/dashboard?payment=success');
    // A second click on Pay lands on the success page again and charges nothing more.
    const again = await submit(form, 'pay', form.csrfToken);
    assert.equal(again.status, 303);
    await waitFor(async () => (await creditsOf(user.token, 1500)) > 0, 'the pack credited', 60_000);
    const page = await fetch(`${s.base}/checkout/local/cs_unknown`);
    assert.equal(page.status, 404);
    // Cancel on a fresh checkout goes back to pricing and sells nothing.
    const other = await s.request<{ url: string }>('POST', '/checkout/session', {
      token: user.token,
      json: { price_id: 'price_starter_pack', product_type: 'payment' },
    });
    const otherForm = await openForm(s.base, other.body.url);
    const cancelled = await submit(otherForm, 'cancel', otherForm.csrfToken);
    assert.equal(new URL(cancelled.location!, s.base).pathname, '/pricing');
    const history = await s.request<TransactionsBody>('GET', '/tokens/', { token: user.token });
    assert.equal(history.body.transactions.filter((t) => t.amount > 200).length, 1, 'one pack, credited once');
  });

  it('a plan bought on the local page shows on /auth/me and /subscription/status; the local portal cancels and resumes', async () => {
    const user = await s.newUser('billing-plan');
    const started = await s.request<{ url: string }>('POST', '/checkout/session', {
      token: user.token,
      json: { type: 'subscription', plan: 'lite_yearly' },
    });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    await pay(s.base, started.body.url);
    await waitFor(
      async () => {
        const me = await s.request<UserBody>('GET', '/auth/me', { token: user.token });
        return me.body.subscriptionStatus === 'active' && me.body.tokenBalance === 200 + 20400;
      },
      'the plan on the profile and its tokens',
      60_000,
    );
    const twice = await s.request('POST', '/checkout/session', {
      token: user.token,
      json: { type: 'subscription', plan: 'studio_monthly' },
    });
    assert.equal(twice.status, 409, 'one subscription at a time');
    const status = await s.request<{ subscriptionPlan: string; billingPeriod: string; cancelAtPeriodEnd: boolean }>(
      'GET',
      '/subscription/status',
      { token: user.token },
    );
    assert.deepEqual(
      [status.body.subscriptionPlan, status.body.billingPeriod, status.body.cancelAtPeriodEnd],
      ['lite', 'yearly', false],
    );
    const portal = await s.request<{ url: string }>('POST', '/create-billing-portal', { token: user.token });
    assert.equal(portal.status, 200);
    const form = await openForm(s.base, portal.body.url);
    assert.deepEqual(form.buttons, ['cancel']);
    const cancelled = await submit(form, 'cancel', form.csrfToken);
    assert.deepEqual([cancelled.status, new URL(cancelled.location!, s.base).pathname], [303, '/account']);
    const cancelling = await s.request<{ cancelAtPeriodEnd: boolean; hasSubscription: boolean }>(
      'GET',
      '/subscription/status',
      { token: user.token },
    );
    assert.deepEqual([cancelling.body.cancelAtPeriodEnd, cancelling.body.hasSubscription], [true, true]);
    const resumeForm = await openForm(s.base, portal.body.url);
    assert.deepEqual(resumeForm.buttons, ['resume']);
    await submit(resumeForm, 'resume', resumeForm.csrfToken);
    const resumed = await s.request<{ cancelAtPeriodEnd: boolean }>('GET', '/subscription/status', {
      token: user.token,
    });
    assert.equal(resumed.body.cancelAtPeriodEnd, false);
    // The account page's cancel: at the end of the period, with a message saying so.
    const cancel = await s.request<{ message: string }>('POST', '/subscription/cancel', { token: user.token });
    assert.equal(cancel.status, 200);
    assert.match(cancel.body.message, /end of the current billing period/);
  });

  it('a locked image is unlocked by payment once, through unlock/{id} and through a ticket; tickets are refused when forged', async () => {
    const user = await s.newUser('billing-unlock');
    await generate(user.token);
    await generate(user.token);
    const locked = await generate(user.token);
    const second = await generate(user.token);
    assert.deepEqual([locked.is_locked, second.is_locked], [true, true], 'no tokens left: made locked');
    const other = await s.newUser('billing-unlock-other');
    assert.equal((await s.request('POST', `/images/unlock/${locked.id}`, { token: other.token })).status, 404);

    const started = await s.request<{ checkout_url: string }>('POST', `/images/unlock/${locked.id}`, {
      token: user.token,
    });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const back = await pay(s.base, started.body.checkout_url);
    assert.equal(`${back.pathname}${back.search}`, `/dashboard?unlock_success=true&image_id=${locked.id}`);
    await waitFor(
      async () =>
        (await s.request<ImageJson>('GET', `/images/status/${locked.id}`, { token: user.token })).body.is_locked ===
        false,
      'the image unlocked',
      60_000,
    );
    const again = await s.request('POST', `/images/unlock/${locked.id}`, { token: user.token });
    assert.equal(again.status, 409, 'nothing left to pay for');

    // The browser navigation: a ticket issued to the user for that image, never the access token.
    const forged = await fetch(`${s.base}/api/payments/create-locked-image-payment?ticket=${user.token}`, {
      redirect: 'manual',
    });
    assert.equal(forged.status, 401);
    const ticket = await s.request<{ ticket: string; payment_url: string }>(
      'POST',
      `/payments/locked-image-ticket/${second.id}`,
      { token: user.token },
    );
    assert.equal(ticket.status, 200);
    assert.equal(
      (await s.request('POST', `/payments/locked-image-ticket/${second.id}`, { token: other.token })).status,
      404,
    );
    const [payload, mac] = ticket.body.ticket.split('.');
    const swapped = Buffer.from(Buffer.from(payload!, 'base64url').toString().replace(user.id, other.id)).toString(
      'base64url',
    );
    const tampered = await fetch(
      `${s.base}/api/payments/create-locked-image-payment?ticket=${encodeURIComponent(`${swapped}.${mac}`)}`,
      { redirect: 'manual' },
    );
    assert.equal(tampered.status, 401);
    const navigation = await fetch(`${s.base}${ticket.body.payment_url}&return_url=${encodeURIComponent('/gallery')}`, {
      redirect: 'manual',
    });
    assert.equal(navigation.status, 303);
    const checkout = navigation.headers.get('location')!;
    assert.match(new URL(checkout).pathname, /^\/checkout\/local\/cs_/);
    const returned = await pay(s.base, checkout);
    assert.equal(`${returned.pathname}${returned.search}`, `/gallery?unlock_success=true&image_id=${second.id}`);
    await waitFor(
      async () =>
        (await s.request<ImageJson>('GET', `/images/status/${second.id}`, { token: user.token })).body.is_locked ===
        false,
      'the second image unlocked',
      60_000,
    );
    // Each unlock happened once, by payment, and no tokens moved.
    const imagePool = s.image!.service.context.pool;
    const { rows } = await imagePool.query(
      'SELECT unlocked_via, payment_id FROM images WHERE image_id = ANY($1) ORDER BY image_id',
      [[locked.id, second.id]],
    );
    assert.deepEqual(
      rows.map((r) => r.unlocked_via),
      ['payment', 'payment'],
    );
    assert.ok(rows.every((r) => r.payment_id));
    assert.equal(await balanceOf(user.token), 0);
  });

  it('a payment is taken only for a completed image: refused while it is being made or when it failed', async () => {
    const STILL = 'Your image is still being made. You can pay as soon as it is ready.';
    const FAILED = 'This enhancement failed; there is nothing to pay for.';
    const payFor = (id: string) =>
      s.request<{ message: string; checkout_url?: string }>('POST', '/payments/create-anonymous-payment', {
        json: { enhancement_id: id, success_url: '/', cancel_url: '/' },
      });
    let release = () => {};
    held = new Promise<void>((ok) => {
      release = ok;
    });
    try {
      const id = await guestTry('processing');
      const early = await payFor(id);
      assert.deepEqual([early.status, early.body.message], [409, STILL]);
      // A signed-in user's paid unlock of an image still being made: the same refusal.
      const user = await s.newUser('billing-unlock-processing');
      const image = await generate(user.token);
      const unlock = await s.request<{ message: string }>('POST', `/images/unlock/${image.id}`, { token: user.token });
      assert.deepEqual([unlock.status, unlock.body.message], [409, STILL]);
      const ticket = await s.request<{ message: string }>('POST', `/payments/locked-image-ticket/${image.id}`, {
        token: user.token,
      });
      assert.deepEqual([ticket.status, ticket.body.message], [409, STILL]);
      assert.equal(
        (await billingPool().query('SELECT count(*)::int AS n FROM checkout_sessions WHERE enhancement_id = $1', [id]))
          .rows[0].n,
        0,
        'no checkout started',
      );
      release();
      await waitFor(
        async () =>
          (await s.request<{ status: string }>('GET', `/payments/anonymous-enhancement/${id}`)).body.status ===
          'pending_payment',
        'the try made',
        60_000,
      );
      const ready = await payFor(id);
      assert.equal(ready.status, 200, JSON.stringify(ready.body));
      assert.match(ready.body.checkout_url!, /\/checkout\/local\/cs_/);
    } finally {
      release();
      held = undefined;
    }
    failNext = true;
    const failed = await guestTry('failed');
    const refused = await payFor(failed);
    assert.deepEqual([refused.status, refused.body.message], [409, FAILED]);
  });

  it('a guest’s paid try unlocks once the provider confirms it, with its full result', async () => {
    const id = await guestTry('pending_payment');
    const started = await s.request<{ checkout_url: string }>('POST', '/payments/create-anonymous-payment', {
      json: { enhancement_id: id, success_url: `${s.base}/?payment=success&enhancement_id=${id}`, cancel_url: '/' },
    });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const back = await pay(s.base, started.body.checkout_url);
    assert.equal(back.searchParams.get('payment'), 'success');
    let unlocked: { status: number; body: { success: boolean; processed_url: string | null } } | undefined;
    await waitFor(
      async () => {
        unlocked = await s.request('POST', `/payments/unlock-anonymous-enhancement/${id}`);
        return unlocked.status === 200;
      },
      'the paid try unlocked',
      60_000,
    );
    await waitFor(
      async () =>
        (await s.request<{ status: string }>('GET', `/payments/anonymous-enhancement/${id}`)).body.status ===
        'completed',
      'the try completed',
      60_000,
    );
    const view = await s.request<{ is_paid: boolean; processed_url: string; preview_url: string }>(
      'GET',
      `/payments/anonymous-enhancement/${id}`,
    );
    assert.equal(view.body.is_paid, true);
    assert.notEqual(view.body.processed_url, view.body.preview_url, 'the full result, not the preview');
    assert.match(view.body.processed_url, /result/);
    const file = await fetch(`${s.base}${view.body.processed_url}`);
    assert.equal(file.status, 200);
  });

  it('a deleted user’s payment customer mapping is dropped', async () => {
    const user = await s.newUser('billing-deleted');
    const started = await s.request('POST', '/payments/create-checkout-session', {
      token: user.token,
      json: { price_id: 'price_main_pack', product_type: 'payment' },
    });
    assert.equal(started.status, 200);
    const customers = async () =>
      (await billingPool().query('SELECT count(*)::int AS n FROM customers WHERE user_id = $1', [user.id])).rows[0].n;
    assert.equal(await customers(), 1);
    const admin = await s.request<TokenBody>('POST', '/admin/login', {
      form: { username: s.admin.email, password: s.admin.password },
    });
    const deleted = await s.request('DELETE', `/admin/user/delete?email=${encodeURIComponent(user.email)}`, {
      token: admin.body.access_token,
    });
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    // The stack's own topics (ADR 0010): no run's backlog stands before this delivery.
    await waitFor(async () => (await customers()) === 0, 'the customer mapping dropped', 60_000);
  });
});
