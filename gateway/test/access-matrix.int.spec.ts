// Every /api route x {no token, user token, other user's token, admin token}: the expected
// status, and no answer carries another user's data. (That the document lists exactly the
// routes Express serves is src/api/inventory.unit.spec.ts.)
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { call } from '@flatlay/platform';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { EnhanceEngine } from '../../services/image/src/app/generation-worker.js';
import { documentedOperations } from '../src/api/document.js';
import { apiDocument } from '../src/routes/index.js';
import {
  startStack,
  type Reply,
  type Stack,
  type TokenBody,
  type TransactionsBody,
  type UserBody,
} from './support/stack.js';
import { waitFor } from '../../services/platform/test/support.js';

type Who = 'none' | 'user' | 'other' | 'admin';
const WHO: Who[] = ['none', 'user', 'other', 'admin'];

interface Row {
  /** "METHOD /path" as documented (guards use a sample path under the guarded area). */
  operation: string;
  send(s: Stack, token: string | undefined): Promise<Reply>;
  expect: Record<Who, number>;
  /** An operator's view of users: the admin is meant to see other people's data there. */
  adminSeesUsers?: boolean;
}

const all = (status: number): Record<Who, number> => ({ none: status, user: status, other: status, admin: status });
const signedIn = { none: 401, user: 200, other: 200, admin: 200 };
/** Someone's own image: its owner sees it, everyone else is told it does not exist. */
const ownedByUser = { none: 401, user: 200, other: 404, admin: 404 };

const photo = await readFile(new URL('../../services/image/test/fixtures/top_floor_01.jpg', import.meta.url));
const upload = (fields: Record<string, string>, fileField = 'file') => {
  const form = new FormData();
  form.append(fileField, new Blob([photo]), 'photo.jpg');
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return form;
};
/** A tiny white result at once: the matrix is about who may call what, not about the engine. */
const fakeEngine: EnhanceEngine = {
  async enhance() {
    const full = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#ffffff' } })
      .jpeg()
      .toBuffer();
    return { full, preview: full, thumbnail: full, width: 8, height: 8, format: 'jpeg' } as never;
  },
  async close() {},
};
const adminOperation = { none: 401, user: 403, other: 403, admin: 200 };

describe('access matrix of /api', { timeout: 240_000 }, () => {
  let s: Stack;
  const people: Partial<Record<Who, { id: string; email: string; password: string }>> = {};
  /** The user's own image, and a guest's try the user claims. */
  let userImage = '';
  let guestTry = '';
  /** A guest's try nobody claims (for the guest's checkout). */
  let openGuestTry = '';

  beforeAll(async () => {
    s = await startStack('matrix-test', undefined, { image: { engine: fakeEngine }, analytics: true, billing: {} });
    const user = await s.newUser('matrix-a');
    const other = await s.newUser('matrix-b');
    const admin = await s.request<TokenBody>('POST', '/admin/login', {
      form: { username: s.admin.email, password: s.admin.password },
    });
    const adminMe = await s.request<UserBody>('GET', '/auth/me', { token: admin.body.access_token });
    people.user = user;
    people.other = other;
    people.admin = { id: adminMe.body.id, email: adminMe.body.email, password: s.admin.password };
    // Enough tokens that every row that charges the user can (balances are checked against the ledger below).
    await call(s.ledgerClient, s.ledgerClient.adjust, {
      userId: user.id,
      adjustmentId: randomUUID(),
      operatorId: 'matrix-test',
      reason: 'matrix-test',
      direction: 'add',
      tokens: 1000,
    });
    const mine = await s.request<{ id: string }>('POST', '/images/generate', {
      token: user.token,
      multipart: upload({ enhancement_type: 'tops' }),
    });
    userImage = mine.body.id;
    const guest = await s.request<{ enhancement_id: string }>('POST', '/images/anonymous/generate', {
      multipart: upload({ enhancement_type: 'tops', email: 'guest@example.com' }),
    });
    guestTry = guest.body.enhancement_id;
    const open = await s.request<{ enhancement_id: string }>('POST', '/images/anonymous/generate', {
      multipart: upload({ enhancement_type: 'tops', email: 'guest@example.com' }),
    });
    openGuestTry = open.body.enhancement_id;
    // A payment is taken only for a finished try (ADR 0601 §16).
    await waitFor(
      async () =>
        (await s.request<{ status: string }>('GET', `/payments/anonymous-enhancement/${openGuestTry}`)).body.status ===
        'pending_payment',
      'the open guest try made',
      60_000,
    );
    assert.ok(userImage && guestTry, 'the matrix has an image and a guest try to ask about');
    // The admin's token adjustment finds the user once analytics has projected the registration.
    await waitFor(
      async () => {
        const found = await s.request<{ total: number }>(
          'GET',
          `/admin/users?q=${encodeURIComponent(`email:${user.email}`)}`,
          { token: admin.body.access_token },
        );
        return found.body.total === 1;
      },
      'analytics knows the user',
      60_000,
    );
  }, 180_000);
  afterAll(async () => s?.stop());

  /** A fresh token per request, so a logout in one row cannot affect another. */
  const tokenFor = async (who: Who): Promise<string | undefined> => {
    if (who === 'none') return undefined;
    const p = people[who]!;
    const res =
      who === 'admin'
        ? await s.request<TokenBody>('POST', '/admin/login', { form: { username: p.email, password: p.password } })
        : await s.request<TokenBody>('POST', '/auth/login', { json: { email: p.email, password: p.password } });
    return res.body.access_token;
  };

  const rows: Row[] = [
    {
      operation: 'GET /openapi.json',
      send: (s, token) => s.request('GET', '/openapi.json', { token }),
      expect: all(200),
    },
    {
      operation: 'GET /config',
      send: (s, token) => s.request('GET', '/config', { token }),
      expect: all(200),
    },
    {
      operation: 'POST /auth/register',
      send: (s, token) =>
        s.request('POST', '/auth/register', {
          token,
          json: { email: `m.${randomUUID()}@example.com`, password: 'long enough pw' },
        }),
      expect: all(201),
    },
    {
      operation: 'POST /auth/login',
      send: (s, token) =>
        s.request('POST', '/auth/login', {
          token,
          json: { email: people.user!.email, password: people.user!.password },
        }),
      expect: all(200),
    },
    {
      operation: 'POST /auth/google',
      send: async (s, token) =>
        s.request('POST', '/auth/google', {
          token,
          json: {
            idToken: await s.googleIdToken({
              sub: randomUUID(),
              email: `g.${randomUUID()}@gmail.com`,
              email_verified: true,
            }),
          },
        }),
      expect: all(200),
    },
    // The bearer of this route is a Supabase token: our own tokens are refused like none at all.
    {
      operation: 'POST /auth/supabase',
      send: (s, token) => s.request('POST', '/auth/supabase', { token, json: {} }),
      expect: all(401),
    },
    { operation: 'GET /auth/me', send: (s, token) => s.request('GET', '/auth/me', { token }), expect: signedIn },
    {
      operation: 'POST /auth/logout',
      send: (s, token) => s.request('POST', '/auth/logout', { token }),
      expect: signedIn,
    },
    // Account care (ADR 0402). The calls that change an account are sent so that they are refused
    // for a business reason (a wrong password: 422; a token not ours: 404): the matrix's sessions
    // go on, and a signed-in caller gets past access to that refusal.
    {
      operation: 'POST /auth/verify-email/send',
      send: (s, token) => s.request('POST', '/auth/verify-email/send', { token }),
      expect: signedIn,
    },
    {
      operation: 'POST /auth/verify-email',
      send: (s, token) => s.request('POST', '/auth/verify-email', { token, json: { token: 'not.a.link' } }),
      expect: all(404),
    },
    {
      operation: 'POST /auth/forgot-password',
      send: (s, token) =>
        s.request('POST', '/auth/forgot-password', { token, json: { email: `nobody.${randomUUID()}@example.com` } }),
      expect: all(202),
    },
    {
      operation: 'POST /auth/reset-password',
      send: (s, token) =>
        s.request('POST', '/auth/reset-password', {
          token,
          json: { token: 'not.a.link', password: 'long enough please' },
        }),
      expect: all(404),
    },
    {
      operation: 'POST /auth/confirm-email',
      send: (s, token) => s.request('POST', '/auth/confirm-email', { token, json: { token: 'not.a.link' } }),
      expect: all(404),
    },
    {
      operation: 'POST /auth/change-password',
      send: (s, token) =>
        s.request('POST', '/auth/change-password', {
          token,
          json: { current_password: 'not the password', new_password: 'long enough please' },
        }),
      expect: { none: 401, user: 422, other: 422, admin: 422 },
    },
    {
      operation: 'POST /auth/change-email',
      send: (s, token) =>
        s.request('POST', '/auth/change-email', {
          token,
          json: { new_email: `moved.${randomUUID()}@example.com`, password: 'not the password' },
        }),
      expect: { none: 401, user: 422, other: 422, admin: 422 },
    },
    {
      operation: 'POST /auth/delete-account',
      send: (s, token) =>
        s.request('POST', '/auth/delete-account', {
          token,
          json: { password: 'not the password', confirmation: 'no' },
        }),
      expect: { none: 401, user: 400, other: 400, admin: 400 },
    },
    // Data export (ADR 0403): a signed-in caller's request is accepted (this stack runs no worker).
    {
      operation: 'POST /auth/export',
      send: (s, token) => s.request('POST', '/auth/export', { token }),
      expect: { none: 401, user: 202, other: 202, admin: 202 },
    },
    {
      operation: 'GET /tokens/balance',
      send: (s, token) => s.request('GET', '/tokens/balance', { token }),
      expect: signedIn,
    },
    { operation: 'GET /tokens/', send: (s, token) => s.request('GET', '/tokens/', { token }), expect: signedIn },
    {
      operation: 'POST /admin/login',
      send: (s, token) =>
        s.request('POST', '/admin/login', { token, form: { username: s.admin.email, password: s.admin.password } }),
      expect: all(200),
    },
    {
      operation: 'POST /images/generate',
      send: (s, token) =>
        s.request('POST', '/images/generate', { token, multipart: upload({ enhancement_type: 'tops' }) }),
      expect: signedIn,
    },
    {
      operation: 'POST /images/batch',
      send: (s, token) =>
        s.request('POST', '/images/batch', { token, multipart: upload({ enhancement_type: 'tops' }, 'files') }),
      expect: signedIn,
    },
    {
      operation: 'GET /images/status/{id}',
      send: (s, token) => s.request('GET', `/images/status/${userImage}`, { token }),
      expect: ownedByUser,
    },
    { operation: 'GET /images/', send: (s, token) => s.request('GET', '/images/', { token }), expect: signedIn },
    // The user's image was paid for when it was made: unlocking it again is a success without a charge.
    {
      operation: 'POST /images/unlock-with-tokens/{id}',
      send: (s, token) => s.request('POST', `/images/unlock-with-tokens/${userImage}`, { token }),
      expect: ownedByUser,
    },
    {
      operation: 'POST /images/anonymous/generate',
      send: (s, token) =>
        s.request('POST', '/images/anonymous/generate', {
          token,
          multipart: upload({ enhancement_type: 'tops', email: 'guest@example.com' }),
        }),
      expect: all(200),
    },
    {
      operation: 'GET /images/anonymous/status/{id}',
      send: (s, token) => s.request('GET', `/images/anonymous/status/${guestTry}`, { token }),
      expect: all(200),
    },
    // The user claims the guest's try first (the callers go in the order none, user, other, admin):
    // after that it is the user's, and nobody else's to claim.
    {
      operation: 'POST /images/unlock-anonymous-with-tokens/{id}',
      send: (s, token) => s.request('POST', `/images/unlock-anonymous-with-tokens/${guestTry}`, { token }),
      expect: ownedByUser,
    },
    {
      operation: 'POST /images/events/ticket',
      send: (s, token) => s.request('POST', '/images/events/ticket', { token }),
      expect: signedIn,
    },
    // The stream is opened with a ticket, never a token; without one the request is malformed.
    {
      operation: 'GET /images/events',
      send: async (s, token) => {
        if (!token) return s.request('GET', '/images/events');
        const ticket = await s.request<{ ticket: string }>('POST', '/images/events/ticket', { token });
        return s.request('GET', `/images/events?seconds=1&ticket=${encodeURIComponent(ticket.body.ticket)}`);
      },
      expect: { none: 400, user: 200, other: 200, admin: 200 },
    },
    {
      // Public: whether advanced prompting can be offered (a generative provider is configured).
      operation: 'GET /images/options',
      send: (s, token) => s.request('GET', '/images/options', { token }),
      expect: all(200),
    },
    {
      operation: 'GET /payments/products',
      send: (s, token) => s.request('GET', '/payments/products', { token }),
      expect: all(200),
    },
    {
      operation: 'GET /stripe/config',
      send: (s, token) => s.request('GET', '/stripe/config', { token }),
      expect: all(200),
    },
    {
      operation: 'POST /payments/create-checkout-session',
      send: (s, token) =>
        s.request('POST', '/payments/create-checkout-session', {
          token,
          json: { price_id: 'price_main_pack', product_type: 'payment' },
        }),
      expect: signedIn,
    },
    {
      operation: 'POST /checkout/session',
      send: (s, token) =>
        s.request('POST', '/checkout/session', { token, json: { type: 'subscription', plan: 'studio_monthly' } }),
      expect: signedIn,
    },
    // Every signed-in caller is a billing customer now (the checkouts above): each opens its own portal.
    {
      operation: 'POST /create-billing-portal',
      send: (s, token) => s.request('POST', '/create-billing-portal', { token }),
      expect: signedIn,
    },
    {
      operation: 'GET /subscription/status',
      send: (s, token) => s.request('GET', '/subscription/status', { token }),
      expect: signedIn,
    },
    // Nobody here subscribed: a business refusal (404), never 401/403.
    {
      operation: 'POST /subscription/cancel',
      send: (s, token) => s.request('POST', '/subscription/cancel', { token }),
      expect: { none: 401, user: 404, other: 404, admin: 404 },
    },
    {
      operation: 'POST /payments/create-anonymous-payment',
      send: (s, token) =>
        s.request('POST', '/payments/create-anonymous-payment', {
          token,
          json: { enhancement_id: openGuestTry, success_url: '/?payment=success', cancel_url: '/' },
        }),
      expect: all(200),
    },
    {
      operation: 'GET /payments/anonymous-enhancement/{id}',
      send: (s, token) => s.request('GET', `/payments/anonymous-enhancement/${openGuestTry}`, { token }),
      expect: all(200),
    },
    // Its payment started (the row above) and not confirmed: pending (202) whoever asks, nothing
    // unlocked (the browser's word is not a payment).
    {
      operation: 'POST /payments/unlock-anonymous-enhancement/{id}',
      send: (s, token) => s.request('POST', `/payments/unlock-anonymous-enhancement/${openGuestTry}`, { token }),
      expect: all(202),
    },
    // The user's image was paid for with tokens when it was made: there is nothing to buy (409);
    // for everyone else it does not exist.
    {
      operation: 'POST /images/unlock/{id}',
      send: (s, token) => s.request('POST', `/images/unlock/${userImage}`, { token }),
      expect: { none: 401, user: 409, other: 404, admin: 404 },
    },
    {
      operation: 'POST /payments/locked-image-ticket/{id}',
      send: (s, token) => s.request('POST', `/payments/locked-image-ticket/${userImage}`, { token }),
      expect: { none: 401, user: 409, other: 404, admin: 404 },
    },
    // A browser navigation opened with a ticket only: without one the request is malformed, and an
    // access token given as the ticket is refused.
    {
      operation: 'GET /payments/create-locked-image-payment',
      send: (s, token) =>
        s.request(
          'GET',
          `/payments/create-locked-image-payment${token ? `?ticket=${encodeURIComponent(token)}` : ''}`,
          {
            token,
          },
        ),
      expect: { none: 400, user: 401, other: 401, admin: 401 },
    },
    // Stripe's calls carry a signature, never a bearer token: without one, 400 for everyone.
    {
      operation: 'POST /webhooks/stripe',
      send: (s, token) =>
        s.request('POST', '/webhooks/stripe', {
          token,
          json: { id: 'evt_matrix', type: 'checkout.session.completed' },
        }),
      expect: all(400),
    },
    {
      operation: 'GET /admin/users',
      send: (s, token) => s.request('GET', '/admin/users', { token }),
      expect: adminOperation,
      adminSeesUsers: true,
    },
    ...['signups', 'paid-users', 'trend', 'overview'].map(
      (stat): Row => ({
        operation: `GET /admin/stats/${stat}`,
        send: (s, token) => s.request('GET', `/admin/stats/${stat}`, { token }),
        expect: adminOperation,
      }),
    ),
    {
      operation: 'POST /admin/tokens/adjust',
      send: (s, token) =>
        s.request('POST', '/admin/tokens/adjust', {
          token,
          json: { user_email: people.user!.email, tokens: 1, action: 'deduct' },
        }),
      expect: adminOperation,
      adminSeesUsers: true,
    },
    // Revoking a plan the user does not hold: the administrator reaches the rule (404), nobody else does.
    {
      operation: 'POST /admin/users/unlimited',
      send: (s, token) =>
        s.request('POST', '/admin/users/unlimited', {
          token,
          json: { user_email: people.user!.email, granted: false },
        }),
      expect: { none: 401, user: 403, other: 403, admin: 404 },
      adminSeesUsers: true,
    },
    // Each attempt deletes an account made for it, so the matrix's own people stay.
    {
      operation: 'DELETE /admin/user/delete',
      send: async (s, token) =>
        s.request('DELETE', `/admin/user/delete?email=${encodeURIComponent((await s.newUser('matrix-gone')).email)}`, {
          token,
        }),
      expect: adminOperation,
    },
    {
      operation: 'GET /settings/keys/status',
      send: (s, token) => s.request('GET', '/settings/keys/status', { token }),
      expect: adminOperation,
    },
    {
      operation: 'GET /settings/config',
      send: (s, token) => s.request('GET', '/settings/config', { token }),
      expect: adminOperation,
    },
    // The publishable key: saving it changes no other test's checkout (a plan's price id would, and
    // one of a plan not sold is refused with 404).
    {
      operation: 'POST /settings/keys',
      send: (s, token) => s.request('POST', '/settings/keys', { token, json: { stripe_public_key: 'pk_test_matrix' } }),
      expect: adminOperation,
    },
    {
      operation: 'POST /settings/test/{service}',
      send: (s, token) => s.request('POST', '/settings/test/stripe', { token }),
      expect: adminOperation,
    },
    {
      operation: 'GET /admin/refunds/unpaid',
      send: (s, token) => s.request('GET', '/admin/refunds/unpaid', { token }),
      expect: adminOperation,
    },
    {
      operation: 'GET /admin/dead-letters',
      send: (s, token) => s.request('GET', '/admin/dead-letters', { token }),
      expect: adminOperation,
    },
    // A dead-letter topic nobody has: the admin is let in and told it does not exist.
    ...(['replay', 'discard'] as const).map(
      (kind): Row => ({
        operation: `POST /admin/dead-letters/${kind}`,
        send: (s, token) =>
          s.request('POST', `/admin/dead-letters/${kind}`, {
            token,
            json: { dead_letter_topic: 'identity.user.v1.dlq.matrix-nobody' },
          }),
        expect: { ...adminOperation, admin: 404 },
      }),
    ),
  ];

  it('covers every documented operation', () => {
    const covered = new Set(rows.map((r) => r.operation));
    assert.deepEqual(
      documentedOperations(apiDocument()).filter((op) => !covered.has(op)),
      [],
    );
  });

  for (const row of rows) {
    it(`${row.operation}: ${WHO.map((w) => `${w} ${row.expect[w]}`).join(', ')}`, async () => {
      for (const who of WHO) {
        const res = await row.send(s, await tokenFor(who));
        assert.equal(res.status, row.expect[who], `${row.operation} as ${who}: ${JSON.stringify(res.body)}`);
        if (res.status >= 400) {
          assert.equal(typeof res.body.message, 'string', 'errors carry a message');
          assert.equal(res.body.detail, res.body.message, 'and the same detail');
        }
        // Nothing of another person's leaks into an answer given to a signed-in caller.
        if (who !== 'none' && row.operation !== 'POST /auth/login' && !(who === 'admin' && row.adminSeesUsers)) {
          const text = JSON.stringify(res.body);
          for (const someone of WHO.filter((w) => w !== 'none' && w !== who)) {
            assert.ok(!text.includes(people[someone]!.id), `${row.operation} as ${who} shows ${someone}'s id`);
            assert.ok(!text.includes(people[someone]!.email), `${row.operation} as ${who} shows ${someone}'s email`);
          }
        }
      }
    });
  }

  it("each caller's /me and /tokens answer that caller's own account", async () => {
    for (const who of ['user', 'other', 'admin'] as const) {
      const token = await tokenFor(who);
      const me = await s.request<UserBody>('GET', '/auth/me', { token });
      assert.deepEqual([me.body.id, me.body.email], [people[who]!.id, people[who]!.email]);
      const tokens = await s.request<TransactionsBody>('GET', '/tokens/', { token });
      const ledger = await call(s.ledgerClient, s.ledgerClient.getBalance, { userId: people[who]!.id });
      assert.equal(tokens.body.balance, ledger.balance);
      assert.equal(me.body.tokenBalance, ledger.balance);
    }
  });
});
