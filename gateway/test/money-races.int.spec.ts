// The API-level race suite (ADR 0104): requests that charge or credit sent at the same moment, or
// sent again, through the gateway on real Postgres and Kafka with the real identity, ledger, image,
// billing (local provider) and analytics services. Each case ends by checking the caller's ledger:
// the balance is the expected total and the history sums to it, so a charge taken twice, or one
// taken and lost, fails here whichever request won the race.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { call } from '@flatlay/platform';
import { waitFor } from '../../services/platform/test/support.js';
import { instantEngine } from '../../services/image/test/support/instant-engine.js';
import type { EnhanceEngine } from '../../services/image/src/app/generation-worker.js';
import { pay } from './support/local-checkout.js';
import { startStack, type Stack, type TokenBody, type TransactionsBody } from './support/stack.js';

const photo = await readFile(new URL('../../services/image/test/fixtures/top_floor_01.jpg', import.meta.url));
const WAIT_MS = 60_000;

interface GenerationJson {
  id: string;
  tokensUsed: number;
  is_locked: boolean;
}
interface ImageJson {
  id: string;
  status: string;
  is_locked: boolean;
}

/** While set, the engine waits for it: an image stays processing for as long as a test needs. */
let held: Promise<void> | undefined;
const heldEngine: EnhanceEngine = {
  async enhance(input, options) {
    await held;
    return instantEngine.enhance(input, options);
  },
  async close() {},
};

describe('money races through the API', { timeout: 300_000 }, () => {
  let s: Stack;
  let adminToken: string;

  beforeAll(async () => {
    s = await startStack('money-races-test', undefined, {
      image: { engine: heldEngine },
      billing: {},
      analytics: true,
    });
    const admin = await s.request<TokenBody>('POST', '/admin/login', {
      form: { username: s.admin.email, password: s.admin.password },
    });
    assert.equal(admin.status, 200, JSON.stringify(admin.body));
    adminToken = admin.body.access_token;
  }, 180_000);
  afterAll(async () => s?.stop());

  const photoForm = (extra: Record<string, string> = {}) => {
    const form = new FormData();
    form.append('file', new Blob([photo]), 'photo.jpg');
    form.append('enhancement_type', 'tops');
    for (const [k, v] of Object.entries(extra)) form.append(k, v);
    return form;
  };
  const generate = (token: string, key?: string) =>
    s.request<GenerationJson>('POST', '/images/generate', {
      token,
      multipart: photoForm(),
      headers: key ? { 'Idempotency-Key': key } : {},
    });
  /** The ledger as the user sees it: the balance, and that every movement in the history sums to it. */
  const ledgerOf = async (token: string) => {
    const { body } = await s.request<TransactionsBody>('GET', '/tokens/?limit=100', { token });
    const sum = body.transactions.reduce((total, t) => total + t.amount, 0);
    return { balance: body.balance, sum, history: body.transactions.map((t) => `${t.amount} ${t.description}`) };
  };
  const assertLedger = async (token: string, expected: number) => {
    const l = await ledgerOf(token);
    assert.equal(l.balance, expected, `balance; history: ${l.history.join(', ')}`);
    assert.equal(l.sum, expected, `the history sums to the balance; history: ${l.history.join(', ')}`);
  };
  /** Test set-up through the ledger directly (not the API under test). */
  const addTokens = (userId: string, tokens: number, direction: 'add' | 'deduct' = 'add') =>
    call(s.ledgerClient, s.ledgerClient.adjust, {
      userId,
      adjustmentId: randomUUID(),
      operatorId: 'money-races-test',
      reason: 'test set-up',
      direction,
      tokens,
    });
  /** A fresh user whose balance (sign-up grant included) is exactly `tokens`. */
  const userWith = async (prefix: string, tokens: number) => {
    const user = await s.newUser(prefix);
    await waitFor(async () => (await ledgerOf(user.token)).balance === 200, 'the sign-up grant', WAIT_MS);
    if (tokens !== 200) await addTokens(user.id, Math.abs(tokens - 200), tokens > 200 ? 'add' : 'deduct');
    return user;
  };
  const completed = (token: string, id: string) =>
    waitFor(
      async () => (await s.request<ImageJson>('GET', `/images/status/${id}`, { token })).body.status === 'completed',
      'the image completed',
      WAIT_MS,
    );

  it('two generates at exactly 100 tokens: one charged, the other made locked and not charged', async () => {
    const user = await userWith('race-generate', 100);
    const [a, b] = await Promise.all([generate(user.token), generate(user.token)]);
    assert.deepEqual([a.status, b.status], [200, 200], JSON.stringify([a.body, b.body]));
    assert.deepEqual([a.body.tokensUsed, b.body.tokensUsed].sort(), [0, 100], 'exactly one of the two was charged');
    assert.deepEqual([a.body.is_locked, b.body.is_locked].sort(), [false, true], 'the uncharged one is locked');
    await assertLedger(user.token, 0);
  });

  it('a generate retried with the same idempotency key makes one image and charges once', async () => {
    const user = await userWith('race-idempotent', 300);
    const key = randomUUID();
    const [a, b] = await Promise.all([generate(user.token, key), generate(user.token, key)]);
    const c = await generate(user.token, key);
    assert.deepEqual([a.status, b.status, c.status], [200, 200, 200]);
    assert.equal(new Set([a.body.id, b.body.id, c.body.id]).size, 1, 'one image for one key');
    const gallery = await s.request<{ images: ImageJson[] }>('GET', '/images/', { token: user.token });
    assert.equal(gallery.body.images.length, 1);
    await assertLedger(user.token, 200);
    // Another key is another action: charged again.
    assert.equal((await generate(user.token, randomUUID())).body.tokensUsed, 100);
    await assertLedger(user.token, 100);
    const bad = await s.request('POST', '/images/generate', {
      token: user.token,
      multipart: photoForm(),
      headers: { 'Idempotency-Key': 'not a key' },
    });
    assert.equal(bad.status, 400);
    assert.match(bad.body.message, /Idempotency-Key/);
  });

  it('a double-clicked unlock charges once', async () => {
    const user = await userWith('race-unlock', 0);
    const made = await generate(user.token);
    assert.equal(made.body.is_locked, true);
    await completed(user.token, made.body.id);
    await addTokens(user.id, 100);
    const clicks = await Promise.all(
      [1, 2, 3].map(() =>
        s.request<{ tokens_used: number }>('POST', `/images/unlock-with-tokens/${made.body.id}`, {
          token: user.token,
        }),
      ),
    );
    assert.deepEqual(
      clicks.map((c) => c.status),
      [200, 200, 200],
    );
    assert.equal(
      clicks.reduce((sum, c) => sum + c.body.tokens_used, 0),
      100,
    );
    await assertLedger(user.token, 0);
  });

  it('an unlock is refused while the image is still being made, so it can never be owed back', async () => {
    const user = await userWith('race-early-unlock', 0);
    let release = () => {};
    held = new Promise<void>((ok) => {
      release = ok;
    });
    const made = await generate(user.token);
    assert.equal(made.body.is_locked, true);
    await addTokens(user.id, 100);
    const early = await s.request('POST', `/images/unlock-with-tokens/${made.body.id}`, { token: user.token });
    assert.equal(early.status, 409, JSON.stringify(early.body));
    assert.match(early.body.message, /still being made/);
    await assertLedger(user.token, 100);
    held = undefined;
    release();
    await completed(user.token, made.body.id);
    const unlocked = await s.request<{ tokens_used: number }>('POST', `/images/unlock-with-tokens/${made.body.id}`, {
      token: user.token,
    });
    assert.deepEqual([unlocked.status, unlocked.body.tokens_used], [200, 100]);
    await assertLedger(user.token, 0);
  });

  it('a payment webhook racing an unlock: the credit and the spend both count, once each', async () => {
    const user = await userWith('race-webhook', 0);
    const made = await generate(user.token);
    await completed(user.token, made.body.id);
    await addTokens(user.id, 100);
    const started = await s.request<{ url: string }>('POST', '/payments/create-checkout-session', {
      token: user.token,
      json: { price_id: 'price_main_pack', product_type: 'payment' },
    });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const [, unlock] = await Promise.all([
      pay(s.base, started.body.url),
      s.request<{ tokens_used: number }>('POST', `/images/unlock-with-tokens/${made.body.id}`, { token: user.token }),
    ]);
    assert.equal(unlock.status, 200, JSON.stringify(unlock.body));
    await waitFor(async () => (await ledgerOf(user.token)).balance === 1500, 'the pack credited', WAIT_MS);
    await assertLedger(user.token, 1500);
  });

  it('an admin adjustment retried with the same key is applied once', async () => {
    const user = await userWith('race-adjust', 200);
    await waitFor(
      async () =>
        JSON.stringify(
          (await s.request('GET', `/admin/users?q=${encodeURIComponent(user.email)}`, { token: adminToken })).body,
        ).includes(user.email),
      'the user in the admin read model',
      WAIT_MS,
    );
    const key = randomUUID();
    const adjust = () =>
      s.request<{ applied: number }>('POST', '/admin/tokens/adjust', {
        token: adminToken,
        json: { user_email: user.email, tokens: 50, action: 'add' },
        headers: { 'Idempotency-Key': key },
      });
    const answers = await Promise.all([adjust(), adjust()]);
    answers.push(await adjust());
    assert.deepEqual(
      answers.map((a) => a.status),
      [200, 200, 200],
      JSON.stringify(answers.map((a) => a.body)),
    );
    assert.equal(
      answers.reduce((sum, a) => sum + a.body.applied, 0),
      50,
    );
    await assertLedger(user.token, 250);
  });

  it("two signed-in users claiming one guest's try: one pays and gets it, the other is refused", async () => {
    const tried = await s.request<{ enhancement_id: string }>('POST', '/images/anonymous/generate', {
      multipart: photoForm({ email: `guest-${randomUUID()}@example.com` }),
    });
    assert.equal(tried.status, 200, JSON.stringify(tried.body));
    const id = tried.body.enhancement_id;
    await waitFor(
      async () =>
        (await s.request<{ status: string }>('GET', `/images/anonymous/status/${id}`)).body.status ===
        'pending_payment',
      "the guest's try completed",
      WAIT_MS,
    );
    const [ann, bob] = await Promise.all([userWith('race-claim-a', 200), userWith('race-claim-b', 200)]);
    const claims = await Promise.all(
      [ann, bob].map((u) => s.request('POST', `/images/unlock-anonymous-with-tokens/${id}`, { token: u.token })),
    );
    assert.deepEqual(claims.map((c) => c.status).sort(), [200, 404], JSON.stringify(claims.map((c) => c.body)));
    const winner = claims[0]!.status === 200 ? ann : bob;
    const loser = winner === ann ? bob : ann;
    await assertLedger(winner.token, 100);
    await assertLedger(loser.token, 200);
  });
});
