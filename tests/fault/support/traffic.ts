// What users and an operator do while a fault happens, through the gateway's /api as the web app
// does: sign-ups, generations, token unlocks, checkouts paid by Stripe-shaped webhooks, and admin
// token adjustments. Every call is allowed to fail (the fault may be cutting it); what happened is
// recorded so the invariants can be checked against it afterwards.
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { signWebhook } from '@flatlay/billing';
import type { Product } from './product.js';
import { WEBHOOK_SECRET } from './product.js';

export const PACK_TOKENS = 1500;
const photoOf = (width: number) =>
  sharp({ create: { width, height: 48, channels: 3, background: '#a0522d' } })
    .jpeg()
    .toBuffer();
const photo = await photoOf(64);
/** A photo the worker's stand-in engine refuses (services/image/test/support/worker-process.ts): its job fails. */
const refusedPhoto = await photoOf(33);

export interface User {
  email: string;
  password: string;
  id: string;
  token: string;
}

/** A paid checkout: its Stripe ids, and whether its refund was delivered. */
export interface PaidCheckout {
  userId: string;
  sessionId: string;
  paymentIntent: string;
  refunded: boolean;
}

/** What one stretch of traffic sent (counted by kind, failures included). */
export interface Sent {
  signUps: number;
  generations: number;
  unlocks: number;
  checkouts: number;
  webhooks: number;
  adjustments: number;
}

export const noTraffic = (): Sent => ({
  signUps: 0,
  generations: 0,
  unlocks: 0,
  checkouts: 0,
  webhooks: 0,
  adjustments: 0,
});
export const describeSent = (s: Sent) =>
  `${s.signUps} sign-ups, ${s.generations} generations, ${s.unlocks} unlocks, ${s.checkouts} checkouts, ${s.webhooks} webhooks, ${s.adjustments} adjustments`;

export interface Reply<B> {
  status: number;
  body: B;
}

/** The users, paid checkouts and admin adjustments of the whole run (the invariants look at all of them). */
export class Shop {
  readonly users: User[] = [];
  readonly paid: PaidCheckout[] = [];
  /** Tokens an operator added, by user id; unsure when no try of one adjustment was answered. */
  readonly adjusted = new Map<string, { tokens: number; unsure: boolean }>();
  private adminToken?: string;

  constructor(readonly product: Product) {}

  async api<B>(method: string, path: string, token?: string, body?: unknown): Promise<Reply<B>> {
    const headers: Record<string, string> = { 'idempotency-key': randomUUID() };
    if (token) headers.authorization = `Bearer ${token}`;
    let payload: FormData | string | undefined;
    if (body instanceof FormData) payload = body;
    else if (body instanceof URLSearchParams) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = body.toString();
    } else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const res = await fetch(`${this.product.base}/api${path}`, {
      method,
      headers,
      body: payload,
      signal: AbortSignal.timeout(30_000),
    });
    return { status: res.status, body: (await res.json().catch(() => ({}))) as B };
  }

  async admin(): Promise<string> {
    if (this.adminToken) return this.adminToken;
    const res = await this.api<{ access_token: string }>(
      'POST',
      '/admin/login',
      undefined,
      new URLSearchParams({ username: this.product.admin.email, password: this.product.admin.password }),
    );
    if (res.status !== 200) throw new Error(`admin login answered ${res.status}: ${JSON.stringify(res.body)}`);
    this.adminToken = res.body.access_token;
    return this.adminToken;
  }

  async signUp(sent: Sent): Promise<User | undefined> {
    sent.signUps++;
    const email = `fault-${randomUUID().slice(0, 10)}@example.com`;
    const password = 'fault suite user pw';
    const res = await this.api<{ access_token: string; user: { id: string } }>('POST', '/auth/register', undefined, {
      email,
      password,
    }).catch(() => undefined);
    if (res?.status !== 201) return undefined;
    const user = { email, password, id: res.body.user.id, token: res.body.access_token };
    this.users.push(user);
    return user;
  }

  async generate(user: User, sent: Sent, refused = false): Promise<void> {
    sent.generations++;
    const form = new FormData();
    form.append('file', new Blob([refused ? refusedPhoto : photo]), 'photo.jpg');
    form.append('enhancement_type', 'tops');
    await this.api('POST', '/images/generate', user.token, form).catch(() => undefined);
  }

  /** Unlocks with tokens whatever of the user's images is finished and locked. */
  async unlockFinished(user: User, sent: Sent): Promise<void> {
    const page = await this.api<{ images: Array<{ id: string; status: string; is_locked: boolean }> }>(
      'GET',
      '/images/?limit=50',
      user.token,
    ).catch(() => undefined);
    for (const img of page?.body.images ?? []) {
      if (img.status !== 'completed' || !img.is_locked) continue;
      sent.unlocks++;
      await this.api('POST', `/images/unlock-with-tokens/${img.id}`, user.token).catch(() => undefined);
    }
  }

  /** Starts a pack's checkout, and pays it: Stripe's checkout.session.completed, signed as Stripe signs it. */
  async buyPack(user: User, sent: Sent): Promise<PaidCheckout | undefined> {
    sent.checkouts++;
    const started = await this.api<{ url: string }>('POST', '/payments/create-checkout-session', user.token, {
      price_id: 'price_main_pack',
      product_type: 'payment',
    }).catch(() => undefined);
    const sessionId = started?.status === 200 ? new URL(started.body.url).pathname.split('/').pop() : undefined;
    if (!sessionId) return undefined;
    const paid: PaidCheckout = {
      userId: user.id,
      sessionId,
      paymentIntent: `pi_${randomUUID().replaceAll('-', '')}`,
      refunded: false,
    };
    this.paid.push(paid);
    await this.deliver(this.completed(paid), sent);
    return paid;
  }

  completed(paid: PaidCheckout): string {
    return stripeEvent('checkout.session.completed', {
      id: paid.sessionId,
      object: 'checkout.session',
      mode: 'payment',
      status: 'complete',
      payment_status: 'paid',
      customer: `cus_${paid.userId.slice(0, 8)}`,
      payment_intent: paid.paymentIntent,
      subscription: null,
      amount_total: 2400,
      currency: 'usd',
      metadata: { user_id: paid.userId, kind: 'token_pack', pack_id: 'main_pack', tokens: String(PACK_TOKENS) },
    });
  }

  refund(paid: PaidCheckout): string {
    paid.refunded = true;
    return stripeEvent('charge.refunded', {
      id: `ch_${randomUUID().slice(0, 8)}`,
      object: 'charge',
      payment_intent: paid.paymentIntent,
      amount: 2400,
      amount_refunded: 2400,
      refunded: true,
      currency: 'usd',
    });
  }

  /** Delivers one webhook as Stripe does (retried by Stripe until a 2xx: here until a 2xx or 10 tries). */
  async deliver(event: string, sent: Sent): Promise<void> {
    for (let attempt = 0; attempt < 10; attempt++) {
      sent.webhooks++;
      const res = await fetch(`${this.product.base}/api/webhooks/stripe`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signWebhook(event, WEBHOOK_SECRET) },
        body: event,
        signal: AbortSignal.timeout(30_000),
      }).catch(() => undefined);
      if (res && res.status < 300) return;
      await new Promise((r) => setTimeout(r, 500 * (attempt + 1)));
    }
  }

  /** An operator adds tokens to a user (with an Idempotency-Key, retried until answered). */
  async adjust(user: User, tokens: number, sent: Sent): Promise<void> {
    const key = randomUUID();
    for (let attempt = 0; attempt < 10; attempt++) {
      sent.adjustments++;
      const res = await fetch(`${this.product.base}/api/admin/tokens/adjust`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${await this.admin()}`,
          'idempotency-key': key,
        },
        body: JSON.stringify({ user_email: user.email, tokens, action: 'add' }),
        signal: AbortSignal.timeout(30_000),
      }).catch(() => undefined);
      if (res?.status === 200) {
        // Answered: applied exactly once, by this try or an earlier one that was cut off (the
        // ledger answers a repeat of the same key with applied 0).
        const was = this.adjusted.get(user.id) ?? { tokens: 0, unsure: false };
        this.adjusted.set(user.id, { ...was, tokens: was.tokens + tokens });
        return;
      }
      await new Promise((r) => setTimeout(r, 500 * (attempt + 1)));
    }
    const was = this.adjusted.get(user.id) ?? { tokens: 0, unsure: false };
    this.adjusted.set(user.id, { ...was, unsure: true });
  }

  /**
   * Traffic until `stop` resolves: each round signs up a user, who generates three times (the
   * sign-up grant pays for two: a third result stays locked; one photo of the three fails in
   * the engine, and its charge must come back) and buys a pack (every third
   * round); an operator adds 100 tokens to an earlier user (every second round), who then unlocks
   * what is finished and locked.
   */
  async during(stop: Promise<unknown>, sent: Sent): Promise<void> {
    let stopped = false;
    // Either way (a fault that fails is reported by its own test, not as an unhandled rejection here).
    const onStop = () => {
      stopped = true;
    };
    stop.then(onStop, onStop);
    let round = 0;
    do {
      round++;
      const user = await this.signUp(sent);
      if (user) {
        await Promise.all([this.generate(user, sent), this.generate(user, sent), this.generate(user, sent, true)]);
        if (round % 3 === 1) await this.buyPack(user, sent);
      }
      const earlier = this.users[Math.floor(Math.random() * this.users.length)];
      if (earlier) {
        if (round % 2 === 0) await this.adjust(earlier, 100, sent);
        await this.unlockFinished(earlier, sent);
      }
    } while (!stopped);
  }
}

export function stripeEvent(type: string, object: Record<string, unknown>): string {
  return JSON.stringify({
    id: `evt_${randomUUID().replaceAll('-', '')}`,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    data: { object },
  });
}
