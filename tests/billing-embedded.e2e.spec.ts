// Money on the embedded default (`npm start`: embedded PostgreSQL, in-process bus, no Stripe key):
// the local payment provider's checkout page driven over HTTP as a person would, its signed
// events taking the same webhook path Stripe's do. A pack credits once; a plan shows on the
// profile with its tokens; a guest's paid try gets its full result; a locked image unlocks.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { freePort } from '@flatlay/platform';
import { startNode, type ChildRun } from '../services/platform/test/process.js';
import { waitFor } from '../services/platform/test/support.js';
import { openForm, pay, submit } from '../gateway/test/support/local-checkout.js';
import { embeddedEnv, untilHealthy } from './support/embedded-product.js';
import { apiClient } from './support/api-client.js';

const photo = await readFile(new URL('../services/image/test/fixtures/top_floor_01.jpg', import.meta.url));

interface Profile {
  tokenBalance: number;
  subscriptionStatus: string | null;
  subscriptionPlan: string;
  subscriptionPlanName: string | null;
}

describe('payments on the embedded default', { timeout: 600_000 }, () => {
  let product: ChildRun;
  let dataDir: string;
  let base: string;

  const api = apiClient(() => base);
  const register = async (name: string) => {
    const res = await api<{ access_token: string; user: { id: string } }>('POST', '/auth/register', {
      json: { email: `${name}@example.com`, password: 'a good long password' },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.access_token;
  };
  const me = async (token: string) => (await api<Profile>('GET', '/auth/me', { token })).body;
  const upload = (fields: Record<string, string>) => {
    const form = new FormData();
    form.append('file', new Blob([photo]), 'photo.jpg');
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    return form;
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'flatlay-billing-e2e-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    product = startNode(
      ['apps/embedded/dist/embedded.js'],
      embeddedEnv(port, dataDir, {
        STRIPE_SECRET_KEY: '',
        // The address the product is reached at: checkout pages and return addresses are on it.
        PUBLIC_BASE_URL: base,
        LOG_LEVEL: 'warn',
        // The engine's stand-in: these are payments, not the engine's CPU time.
        IMAGE_ENGINE: 'instant',
      }),
    );
    await untilHealthy(base, product.child);
    assert.equal(product.child.exitCode, null, product.output());
  }, 240_000);

  afterAll(async () => {
    if (product && product.child.exitCode === null) {
      product.child.kill('SIGINT');
      await product.exited;
    }
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('buying main_pack on the local checkout page credits its tokens once', async () => {
    const token = await register('pack.buyer');
    const products = await api<{ token_packs: Array<{ id: string; price_id: string; tokens: number }> }>(
      'GET',
      '/payments/products',
    );
    const main = products.body.token_packs.find((p) => p.id === 'main_pack')!;
    const checkout = await api<{ url: string }>('POST', '/payments/create-checkout-session', {
      token,
      json: { price_id: main.price_id, product_type: 'payment' },
    });
    assert.equal(checkout.status, 200, JSON.stringify(checkout.body));
    const form = await openForm(base, checkout.body.url);
    const back = await pay(base, checkout.body.url);
    assert.equal(`${back.pathname}${back.search}`, '/dashboard?payment=success');
    await waitFor(async () => (await me(token)).tokenBalance === 200 + main.tokens, 'the pack credited', 60_000);
    // Pay again on the same page (a second click, a reload): the success page, and nothing more.
    const again = await submit(form, 'pay', form.csrfToken);
    assert.equal(again.status, 303);
    // A second, different purchase after it: once that one shows, the first was not repeated.
    const starter = products.body.token_packs.find((p) => p.id === 'starter_pack')!;
    const next = await api<{ url: string }>('POST', '/checkout/session', {
      token,
      json: { price_id: starter.price_id, product_type: 'payment' },
    });
    await pay(base, next.body.url);
    await waitFor(
      async () => (await me(token)).tokenBalance === 200 + main.tokens + starter.tokens,
      'the second pack credited',
      60_000,
    );
    const history = await api<{ transactions: Array<{ amount: number }> }>('GET', '/tokens/', { token });
    assert.equal(history.body.transactions.filter((t) => t.amount === main.tokens).length, 1, 'main_pack once');
  });

  it('subscribing to studio_monthly makes /auth/me show an active studio plan and 4000 more tokens', async () => {
    const token = await register('studio.subscriber');
    // The sign-up grant (200) and the plan's month (4000).
    const before = 200;
    const checkout = await api<{ url: string }>('POST', '/checkout/session', {
      token,
      json: { type: 'subscription', plan: 'studio_monthly' },
    });
    assert.equal(checkout.status, 200, JSON.stringify(checkout.body));
    await pay(base, checkout.body.url);
    await waitFor(
      async () => {
        const p = await me(token);
        return p.subscriptionStatus === 'active' && p.tokenBalance === before + 4000;
      },
      'the active plan and its tokens on the profile',
      60_000,
    );
    const profile = await me(token);
    assert.equal(profile.subscriptionPlan, 'studio');
    const status = await api<{ hasSubscription: boolean; subscriptionPlan: string; status: string }>(
      'GET',
      '/subscription/status',
      { token },
    );
    assert.deepEqual(
      [status.body.hasSubscription, status.body.subscriptionPlan, status.body.status],
      [true, 'studio', 'active'],
    );
    // The billing portal page cancels at period end and resumes.
    const portal = await api<{ url: string }>('POST', '/create-billing-portal', { token });
    const form = await openForm(base, portal.body.url);
    assert.equal((await submit(form, 'cancel', form.csrfToken)).status, 303);
    const cancelling = await api<{ cancelAtPeriodEnd: boolean; status: string }>('GET', '/subscription/status', {
      token,
    });
    assert.deepEqual([cancelling.body.cancelAtPeriodEnd, cancelling.body.status], [true, 'active']);
    const resume = await openForm(base, portal.body.url);
    assert.equal((await submit(resume, 'resume', resume.csrfToken)).status, 303);
    const resumed = await api<{ cancelAtPeriodEnd: boolean }>('GET', '/subscription/status', { token });
    assert.equal(resumed.body.cancelAtPeriodEnd, false);
  });

  it("a guest's paid try becomes is_paid with its full-resolution processed_url", async () => {
    const tried = await api<{ enhancement_id: string }>('POST', '/images/anonymous/generate', {
      form: upload({ email: 'guest@example.com', enhancement_type: 'tops' }),
    });
    assert.equal(tried.status, 200, JSON.stringify(tried.body));
    const id = tried.body.enhancement_id;
    await waitFor(
      async () =>
        (await api<{ status: string }>('GET', `/images/anonymous/status/${id}`)).body.status === 'pending_payment',
      'the locked result',
      60_000,
    );
    const locked = await api<{ is_paid: boolean; processed_url: string; preview_url: string }>(
      'GET',
      `/payments/anonymous-enhancement/${id}`,
    );
    assert.equal(locked.body.is_paid, false);
    assert.equal(locked.body.processed_url, locked.body.preview_url, 'before payment: the watermarked preview');
    const checkout = await api<{ checkout_url: string }>('POST', '/payments/create-anonymous-payment', {
      json: {
        enhancement_id: id,
        success_url: `${base}/?payment=success&enhancement_id=${id}`,
        cancel_url: `${base}/`,
      },
    });
    assert.equal(checkout.status, 200, JSON.stringify(checkout.body));
    const back = await pay(base, checkout.body.checkout_url);
    assert.equal(back.searchParams.get('payment'), 'success');
    let unlocked = await api<{ success: boolean; processed_url: string }>(
      'POST',
      `/payments/unlock-anonymous-enhancement/${id}`,
    );
    await waitFor(
      async () => {
        unlocked = await api('POST', `/payments/unlock-anonymous-enhancement/${id}`);
        return unlocked.status === 200;
      },
      'the paid try unlocked',
      60_000,
    );
    assert.equal(unlocked.body.success, true);
    const paid = await api<{ is_paid: boolean; processed_url: string; preview_url: string }>(
      'GET',
      `/payments/anonymous-enhancement/${id}`,
    );
    assert.equal(paid.body.is_paid, true);
    assert.notEqual(paid.body.processed_url, paid.body.preview_url);
    const [full, preview] = await Promise.all(
      [paid.body.processed_url, paid.body.preview_url].map(async (url) =>
        sharp(Buffer.from(await (await fetch(`${base}${url}`)).arrayBuffer())).metadata(),
      ),
    );
    const longSide = (m: { width?: number; height?: number }) => Math.max(m.width ?? 0, m.height ?? 0);
    assert.ok(longSide(preview!) <= 512, 'the preview is small');
    assert.ok(longSide(full!) > 512, `the full-resolution result (${longSide(full!)} px)`);
  });

  it('a locked dashboard image is unlocked by payment', async () => {
    const token = await register('locked.image');
    // 200 tokens: two charged images, then a locked one.
    for (let i = 0; i < 2; i++) {
      const charged = await api<{ is_locked: boolean }>('POST', '/images/generate', {
        token,
        form: upload({ enhancement_type: 'tops' }),
      });
      assert.equal(charged.body.is_locked, false);
    }
    const locked = await api<{ id: string; is_locked: boolean }>('POST', '/images/generate', {
      token,
      form: upload({ enhancement_type: 'tops' }),
    });
    assert.equal(locked.body.is_locked, true);
    const id = locked.body.id;
    // Payment is taken only for a finished result (ADR 0104): while it is made, the answer is 409.
    const early = await api<{ message: string }>('POST', `/images/unlock/${id}`, { token });
    if (early.status !== 200)
      assert.deepEqual([early.status, /still being made/.test(early.body.message)], [409, true]);
    await waitFor(
      async () => (await api<{ status: string }>('GET', `/images/status/${id}`, { token })).body.status === 'completed',
      'the locked image completed',
      60_000,
    );
    const checkout = await api<{ checkout_url: string }>('POST', `/images/unlock/${id}`, { token });
    assert.equal(checkout.status, 200, JSON.stringify(checkout.body));
    const back = await pay(base, checkout.body.checkout_url);
    assert.equal(`${back.pathname}${back.search}`, `/dashboard?unlock_success=true&image_id=${id}`);
    await waitFor(
      async () => {
        const s = await api<{ status: string; is_locked: boolean }>('GET', `/images/status/${id}`, { token });
        return s.body.status === 'completed' && !s.body.is_locked;
      },
      'the image unlocked',
      60_000,
    );
    const done = await api<{ processed_url: string | null }>('GET', `/images/status/${id}`, { token });
    assert.ok(done.body.processed_url, 'the full result is served');
    assert.equal((await fetch(`${base}${done.body.processed_url}`)).status, 200);
    assert.equal((await me(token)).tokenBalance, 0, 'paid for with money, not tokens');
  });
});
