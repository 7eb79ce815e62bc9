// The auth surface through the running gateway: identity and ledger on real Postgres and
// Kafka, rate limits on real Redis; every endpoint and each of its refusals with its message.
import assert from 'node:assert/strict';
import { createPrivateKey, generateKeyPairSync, randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type pg from 'pg';
import { SignJWT } from 'jose';
import {
  call,
  createLogger,
  httpStatusOf,
  outboxMessage,
  startService,
  type AppError,
  type MessageType,
} from '@flatlay/platform';
import { createIdentityService } from '@flatlay/identity';
import { createGatewayApp, listen } from '../src/index.js';
import { events, eventTypes, topics } from '@flatlay/proto';
import { requireEnv, waitFor } from '../../services/platform/test/support.js';
import {
  startStack,
  type SessionBody,
  type Stack,
  type TokenBody,
  type TransactionsBody,
  type UserBody,
} from './support/stack.js';

const UNVERIFIED_LINK =
  'An account with this email already exists. Confirm your email address with your sign-in provider first, or sign in with your password.';
const SUPABASE_LINK_REFUSED =
  'An account with this email already exists. Sign in the way you signed up (with your email and password, or with Google).';
const SESSION_ENDED = 'Not authenticated: the session has ended. Please sign in again.';

describe('auth through the gateway', { timeout: 240_000 }, () => {
  let s: Stack;
  let identityDb: pg.Pool;
  let ledgerDb: pg.Pool;

  beforeAll(async () => {
    s = await startStack('auth-test', { perIp: 10_000, perEmail: 5, windowSeconds: 600 });
    // The stack's own databases (each stack has its own), through its services' pools.
    const poolOf = (name: string) => s.services.find((service) => service.name === name)!.context.pool;
    identityDb = poolOf('identity');
    ledgerDb = poolOf('ledger');
  });
  afterAll(async () => {
    await s?.stop();
  });

  /** An access token signed with the service's key but with chosen claims. */
  const forge = async (claims: Record<string, unknown>, key = createPrivateKey(s.jwtPrivateKeyPem)) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({
      role: 'user',
      iss: 'flatlay',
      aud: 'flatlay-api',
      iat: now - 10,
      exp: now + 600,
      jti: randomUUID(),
      ...claims,
    })
      .setProtectedHeader({ alg: 'ES256' })
      .sign(key);
  };

  describe('POST /api/auth/register', () => {
    it('creates the account, signs in, and shows the 200-token grant in the answer and in the first /me', async () => {
      const email = `New.${randomUUID().slice(0, 8)}@Example.com`;
      const res = await s.request<SessionBody>('POST', '/auth/register', {
        json: { email, password: 'correct horse battery' },
      });
      assert.equal(res.status, 201);
      assert.equal(typeof res.body.access_token, 'string');
      const u = res.body.user;
      assert.deepEqual(
        { ...u, id: undefined, createdAt: undefined },
        {
          id: undefined,
          createdAt: undefined,
          email: email.toLowerCase(),
          tokenBalance: 200,
          firstName: null,
          lastName: null,
          name: email.toLowerCase().split('@')[0],
          avatarUrl: null,
          stripeCustomerId: null,
          stripeSubscriptionId: null,
          subscriptionPlan: 'none',
          subscriptionStatus: null,
          subscriptionPlanName: null,
          subscriptionPeriodEnd: null,
          isUnlimited: false,
          role: 'user',
          // Until the link of the welcome e-mail is used (gateway/test/account-care.int.spec.ts).
          emailVerified: false,
        },
      );
      const me = await s.request<UserBody>('GET', '/auth/me', { token: res.body.access_token });
      assert.equal(me.status, 200);
      assert.equal(me.body.id, u.id);
      assert.equal(me.body.tokenBalance, 200);
      const stored = await identityDb.query('SELECT password_hash FROM users WHERE id = $1', [u.id]);
      assert.match(stored.rows[0].password_hash, /^\$argon2id\$/);
    });

    it("publishes UserRegistered; the ledger's consumer handles it as a no-op (still one grant of 200)", async () => {
      const user = await s.newUser('grant');
      const { rows } = await identityDb.query(
        'SELECT event_id FROM outbox WHERE message_key = $1 AND event_type = $2',
        [user.id, eventTypes.UserRegistered],
      );
      assert.equal(rows.length, 1);
      await waitFor(
        async () =>
          (await ledgerDb.query("SELECT 1 FROM inbox WHERE consumer = 'ledger' AND event_id = $1", [rows[0].event_id]))
            .rowCount === 1,
        'ledger consumed UserRegistered',
      );
      const tokens = await s.request<TransactionsBody>('GET', '/tokens/', { token: user.token });
      assert.equal(tokens.body.balance, 200);
      assert.deepEqual(
        tokens.body.transactions.map((t: { description: string; amount: number }) => [t.description, t.amount]),
        [['Sign-up bonus', 200]],
      );
    });

    it('compares e-mail case-insensitively: a taken address in other case is 409 with a message', async () => {
      const user = await s.newUser('taken');
      const res = await s.request('POST', '/auth/register', {
        json: { email: `  ${user.email.toUpperCase()} `, password: 'another password' },
      });
      assert.equal(res.status, 409);
      assert.equal(res.body.message, 'An account with this email already exists');
      assert.equal(res.body.detail, res.body.message);
    });

    it('refuses a malformed e-mail, a short password and missing fields with 400 and a message', async () => {
      const bad = await s.request('POST', '/auth/register', {
        json: { email: 'not-an-email', password: 'long enough' },
      });
      assert.deepEqual([bad.status, bad.body.message], [400, 'Please enter a valid email address']);
      const short = await s.request('POST', '/auth/register', {
        json: { email: `short.${randomUUID().slice(0, 6)}@example.com`, password: '1234567' },
      });
      assert.deepEqual([short.status, short.body.message], [400, 'Password must be at least 8 characters long']);
      const missing = await s.request('POST', '/auth/register', { json: {} });
      assert.deepEqual([missing.status, missing.body.message], [400, 'Email is required']);
      const wrongType = await s.request('POST', '/auth/register', { json: { email: 42, password: 'long enough' } });
      assert.deepEqual([wrongType.status, wrongType.body.message], [400, 'email must be a string']);
    });

    it('refuses a body that is not JSON with 415, naming the Content-Type to use', async () => {
      const res = await fetch(`${s.base}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: '{"email":"a@example.com"}',
      });
      const body = (await res.json()) as { message: string; code: string };
      assert.equal(res.status, 415);
      assert.equal(body.code, 'UNSUPPORTED_MEDIA_TYPE');
      assert.match(body.message, /Send the body as JSON with Content-Type: application\/json \(got text\/plain\)/);
    });

    it('refuses a password over 256 characters with 400 and a message at sign-up, login and admin login', async () => {
      const long = 'p'.repeat(257);
      const message = 'Password must be at most 256 characters long';
      const user = await s.newUser('longpw');
      const register = await s.request('POST', '/auth/register', {
        json: { email: `long.${randomUUID().slice(0, 8)}@example.com`, password: long },
      });
      assert.deepEqual([register.status, register.body.message], [400, message]);
      const login = await s.request('POST', '/auth/login', { json: { email: user.email, password: long } });
      assert.deepEqual([login.status, login.body.message], [400, message]);
      const admin = await s.request('POST', '/admin/login', { form: { username: s.admin.email, password: long } });
      assert.deepEqual([admin.status, admin.body.message], [400, message]);
      const fits = await s.request('POST', '/auth/register', {
        json: { email: `fits.${randomUUID().slice(0, 8)}@example.com`, password: 'p'.repeat(256) },
      });
      assert.equal(fits.status, 201);
    });

    it('when the ledger does not answer, sign-up and sign-in still succeed (balance 0), and the grant follows from UserRegistered', async () => {
      // A ledger address where nothing listens.
      const dead = createServer();
      await new Promise<void>((ok) => dead.listen(0, '127.0.0.1', ok));
      const deadPort = (dead.address() as { port: number }).port;
      await new Promise((ok) => dead.close(ok));
      const identityAddress = s.services.find((x) => x.name === 'identity')!;
      const app = createGatewayApp({
        logger: createLogger('ledger-away-test', 'silent'),
        corsOrigins: [],
        services: [
          { name: 'identity', address: `127.0.0.1:${identityAddress.port}` },
          { name: 'ledger', address: `127.0.0.1:${deadPort}` },
        ],
      });
      const http = await listen(app, '127.0.0.1', 0);
      try {
        const email = `away.${randomUUID().slice(0, 8)}@example.com`;
        const post = (path: string) =>
          fetch(`http://127.0.0.1:${http.port}/api${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email, password: 'correct horse battery' }),
          });
        const registered = await post('/auth/register');
        const body = (await registered.json()) as { access_token: string; user: { id: string; tokenBalance: number } };
        assert.deepEqual([registered.status, body.user.tokenBalance], [201, 0]);
        const login = await post('/auth/login');
        assert.equal(login.status, 200);
        // The real gateway (whose ledger is up) shows the grant the ledger made from the event.
        await waitFor(
          async () =>
            (await s.request<UserBody>('GET', '/auth/me', { token: body.access_token })).body.tokenBalance === 200,
          'grant from UserRegistered',
        );
      } finally {
        await http.stop();
      }
    });
  });

  describe('POST /api/auth/login', () => {
    it('signs in with any case of the e-mail and answers the profile with the balance', async () => {
      const user = await s.newUser('login');
      const res = await s.request<SessionBody>('POST', '/auth/login', {
        json: { email: user.email.toUpperCase(), password: user.password },
      });
      assert.equal(res.status, 200);
      assert.equal(res.body.user.id, user.id);
      assert.equal(res.body.user.tokenBalance, 200);
      assert.notEqual(res.body.access_token, user.token);
    });

    it('answers the same 401 message for a wrong password and an unknown e-mail', async () => {
      const user = await s.newUser('wrong');
      const wrong = await s.request('POST', '/auth/login', {
        json: { email: user.email, password: 'not the password' },
      });
      const unknown = await s.request('POST', '/auth/login', {
        json: { email: `nobody.${randomUUID()}@example.com`, password: 'not the password' },
      });
      assert.deepEqual([wrong.status, wrong.body.message], [401, 'Invalid email or password']);
      assert.deepEqual([unknown.status, unknown.body], [401, wrong.body]);
    });

    it('refuses missing fields with 400', async () => {
      const res = await s.request('POST', '/auth/login', { json: { email: 'a@example.com' } });
      assert.deepEqual([res.status, res.body.message], [400, 'Email and password are required']);
    });

    it('limits attempts per e-mail: 429 with a message and Retry-After', async () => {
      const user = await s.newUser('limited');
      for (let i = 0; i < 5; i++)
        assert.equal(
          (await s.request('POST', '/auth/login', { json: { email: user.email, password: `guess${i}` } })).status,
          401,
        );
      const limited = await s.request('POST', '/auth/login', {
        json: { email: user.email.toUpperCase(), password: user.password },
      });
      assert.equal(limited.status, 429);
      assert.match(limited.body.message, /^Too many attempts\. Please try again in \d+ seconds\.$/);
      assert.ok(Number(limited.headers.get('retry-after')) > 0);
      // Another address from the same client is not affected.
      const other = await s.newUser('unaffected');
      assert.equal(
        (await s.request('POST', '/auth/login', { json: { email: other.email, password: other.password } })).status,
        200,
      );
    });
  });

  describe('rate limits per client IP', () => {
    it('register and login: 429 with a message and Retry-After past the per-IP limit (memory counters without Redis)', async () => {
      const app = createGatewayApp({
        logger: createLogger('ip-limit-test', 'silent'),
        corsOrigins: [],
        services: s.services.map((x) => ({ name: x.name, address: `127.0.0.1:${x.port}` })),
        rateLimits: { perIp: 3, perEmail: 100, windowSeconds: 600 },
      });
      const http = await listen(app, '127.0.0.1', 0);
      try {
        const post = (path: string, email: string) =>
          fetch(`http://127.0.0.1:${http.port}/api${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email, password: 'x' }),
          });
        for (let i = 0; i < 3; i++) assert.equal((await post('/auth/register', `bad-${i}`)).status, 400);
        const limited = await post('/auth/register', `ip.${randomUUID()}@example.com`);
        assert.equal(limited.status, 429);
        assert.match(
          ((await limited.json()) as { message: string }).message,
          /^Too many attempts\. Please try again in \d+ seconds\.$/,
        );
        assert.ok(Number(limited.headers.get('retry-after')) > 0);
        // Login has its own counters.
        for (let i = 0; i < 3; i++) assert.equal((await post('/auth/login', `n${i}@example.com`)).status, 401);
        assert.equal((await post('/auth/login', 'n9@example.com')).status, 429);
      } finally {
        await http.stop();
      }
    });
  });

  describe('GET /api/auth/me and the bearer token', () => {
    it('401 with a message for a missing, malformed, tampered, foreign, wrong-audience or expired token', async () => {
      const user = await s.newUser('me');
      const cases: Array<[string, Record<string, string>, RegExp]> = [
        ['missing', {}, /^Not authenticated: Authentication required$/],
        ['not bearer', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }, /^Not authenticated/],
        ['malformed', { authorization: 'Bearer not-a-jwt' }, /^Not authenticated: the token is malformed/],
        [
          'tampered',
          { authorization: `Bearer ${user.token.slice(0, -4)}AAAA` },
          /^Not authenticated: the token signature is invalid/,
        ],
        [
          'foreign key',
          {
            authorization: `Bearer ${await forge({ sub: user.id }, generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey)}`,
          },
          /signature is invalid/,
        ],
        [
          'wrong audience',
          { authorization: `Bearer ${await forge({ sub: user.id, aud: 'someone-else' })}` },
          /not issued here/,
        ],
        [
          'expired',
          { authorization: `Bearer ${await forge({ sub: user.id, iat: 1_000, exp: 2_000 })}` },
          /^Not authenticated: token expired$/,
        ],
      ];
      for (const [name, headers, message] of cases) {
        const res = await s.request('GET', '/auth/me', { headers });
        assert.equal(res.status, 401, name);
        assert.match(res.body.message, message, name);
        assert.equal(res.headers.get('www-authenticate'), 'Bearer', name);
      }
      assert.equal((await s.request('GET', '/auth/me', { token: user.token })).status, 200);
    });

    it('a token forged with the user role claim changed to admin does not verify', async () => {
      const user = await s.newUser('escalate');
      const [h, p, sig] = user.token.split('.');
      const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
      const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, role: 'admin' })).toString('base64url')}.${sig}`;
      assert.equal((await s.request('GET', '/admin/users', { token: forged })).status, 401);
    });

    it('401 once the user is deleted: credentials and personal data gone, UserDeleted published', async () => {
      const user = await s.newUser('deleted');
      const answer = await call(s.identityClient, s.identityClient.deleteUser, {
        email: user.email.toUpperCase(),
        userId: '',
      });
      assert.equal(answer.userId, user.id);
      const res = await s.request('GET', '/auth/me', { token: user.token });
      assert.deepEqual([res.status, res.body.message], [401, 'Not authenticated: the account no longer exists']);
      assert.equal((await identityDb.query('SELECT 1 FROM users WHERE id = $1', [user.id])).rowCount, 0);
      assert.equal(
        (
          await identityDb.query('SELECT 1 FROM outbox WHERE message_key = $1 AND event_type = $2', [
            user.id,
            eventTypes.UserDeleted,
          ])
        ).rowCount,
        1,
      );
      const login = await s.request('POST', '/auth/login', { json: { email: user.email, password: user.password } });
      assert.equal(login.status, 401);
    });

    it('deleting an administrator account is refused as a conflict (409), not a permission problem', async () => {
      await assert.rejects(
        call(s.identityClient, s.identityClient.deleteUser, { email: s.admin.email, userId: '' }),
        (e: AppError) =>
          e.code === 'CONFLICT' &&
          httpStatusOf(e.code) === 409 &&
          e.message === 'Administrator accounts cannot be deleted',
      );
      assert.equal(
        (await identityDb.query('SELECT 1 FROM users WHERE lower(email) = $1', [s.admin.email.toLowerCase()])).rowCount,
        1,
        'the admin account is still there',
      );
    });
  });

  describe('POST /api/auth/logout', () => {
    it('revokes the presented token only, and answers 2xx again when it is already revoked', async () => {
      const user = await s.newUser('logout');
      const second = (
        await s.request<TokenBody>('POST', '/auth/login', { json: { email: user.email, password: user.password } })
      ).body.access_token;
      const out = await s.request('POST', '/auth/logout', { token: user.token });
      assert.deepEqual([out.status, out.body], [200, { message: 'Logged out' }]);
      const me = await s.request('GET', '/auth/me', { token: user.token });
      assert.deepEqual([me.status, me.body.message], [401, 'Not authenticated: token revoked']);
      assert.equal((await s.request('GET', '/tokens/balance', { token: user.token })).status, 401);
      assert.equal((await s.request('POST', '/auth/logout', { token: user.token })).status, 200);
      assert.equal((await s.request('GET', '/auth/me', { token: second })).status, 200, 'the other session goes on');
    });

    it('401 without a token or with one not issued here', async () => {
      const none = await s.request('POST', '/auth/logout');
      assert.deepEqual([none.status, none.body.message], [401, 'Not authenticated: Authentication required']);
      const bad = await s.request('POST', '/auth/logout', { token: 'garbage' });
      assert.equal(bad.status, 401);
    });
  });

  describe('POST /api/auth/google', () => {
    it('creates an account from a verified Google ID token, with its name and picture and the grant', async () => {
      const sub = randomUUID();
      const email = `g.${sub.slice(0, 8)}@gmail.com`;
      const idToken = await s.googleIdToken({
        sub,
        email,
        email_verified: true,
        given_name: 'Ada',
        family_name: 'Lovelace',
        picture: 'https://lh3.example/p.png',
      });
      const res = await s.request<SessionBody>('POST', '/auth/google', { json: { idToken } });
      assert.equal(res.status, 200);
      assert.equal(typeof res.body.access_token, 'string');
      assert.deepEqual(
        [
          res.body.user.email,
          res.body.user.name,
          res.body.user.firstName,
          res.body.user.avatarUrl,
          res.body.user.tokenBalance,
        ],
        [email, 'Ada Lovelace', 'Ada', 'https://lh3.example/p.png', 200],
      );
      const again = await s.request<SessionBody>('POST', '/auth/google', {
        json: { idToken: await s.googleIdToken({ sub, email, email_verified: true }) },
      });
      assert.equal(again.body.user.id, res.body.user.id, 'the same Google account signs in to the same user');
      assert.equal(again.body.user.tokenBalance, 200, 'the grant is made once');
    });

    it('links to the password account with the same verified e-mail; refuses to when unverified (409)', async () => {
      const user = await s.newUser('link');
      const unverified = await s.request('POST', '/auth/google', {
        json: { idToken: await s.googleIdToken({ sub: randomUUID(), email: user.email, email_verified: false }) },
      });
      assert.deepEqual([unverified.status, unverified.body.message], [409, UNVERIFIED_LINK]);
      const res = await s.request<SessionBody>('POST', '/auth/google', {
        json: {
          idToken: await s.googleIdToken({
            sub: randomUUID(),
            email: user.email.toUpperCase(),
            email_verified: true,
            name: 'Grace Hopper',
          }),
        },
      });
      assert.equal(res.status, 200);
      assert.equal(res.body.user.id, user.id);
      assert.equal(res.body.user.name, 'Grace Hopper');
      const changed = await identityDb.query(
        'SELECT count(*)::int AS n FROM outbox WHERE message_key = $1 AND event_type = $2',
        [user.id, eventTypes.UserProfileChanged],
      );
      assert.equal(changed.rows[0].n, 1, 'UserProfileChanged published once');
    });

    it('a verified Google sign-in takes over an unverified password account: the old password and the old token stop working', async () => {
      // Someone signs up with another person's address (nothing verifies it)...
      const squatter = await s.newUser('squat');
      assert.deepEqual(
        (await identityDb.query('SELECT email_verified FROM users WHERE id = $1', [squatter.id])).rows[0],
        { email_verified: false },
      );
      // ...then the address's owner signs in with Google.
      const sub = randomUUID();
      const owner = await s.request<SessionBody>('POST', '/auth/google', {
        json: { idToken: await s.googleIdToken({ sub, email: squatter.email, email_verified: true }) },
      });
      assert.equal(owner.status, 200);
      assert.equal(owner.body.user.id, squatter.id);
      assert.equal(owner.body.user.tokenBalance, 200);
      const me = await s.request('GET', '/auth/me', { token: squatter.token });
      assert.deepEqual([me.status, me.body.message], [401, SESSION_ENDED]);
      const login = await s.request('POST', '/auth/login', {
        json: { email: squatter.email, password: squatter.password },
      });
      assert.deepEqual([login.status, login.body.message], [401, 'Invalid email or password']);
      // The owner's token, issued right after the takeover (likely in the same second), works.
      assert.equal((await s.request('GET', '/auth/me', { token: owner.body.access_token })).status, 200);
      const row = (
        await identityDb.query('SELECT email_verified, password_hash FROM users WHERE id = $1', [squatter.id])
      ).rows[0];
      assert.deepEqual(row, { email_verified: true, password_hash: null });
      // Once verified, the account is not taken over again: the owner's sessions go on.
      const again = await s.request('POST', '/auth/google', {
        json: { idToken: await s.googleIdToken({ sub, email: squatter.email, email_verified: true }) },
      });
      assert.equal(again.status, 200);
      assert.equal((await s.request('GET', '/auth/me', { token: owner.body.access_token })).status, 200);
    });

    it('refuses a missing, wrongly signed, foreign-audience or expired token, and the admin account', async () => {
      const missing = await s.request('POST', '/auth/google', { json: {} });
      assert.deepEqual([missing.status, missing.body.message], [400, 'idToken is required']);
      const claims = { sub: randomUUID(), email: `x.${randomUUID().slice(0, 6)}@gmail.com`, email_verified: true };
      for (const idToken of [
        await s.googleIdToken(claims, { signWith: 'stranger' }),
        await s.googleIdToken(claims, { audience: 'another-app.apps.googleusercontent.com' }),
        await s.googleIdToken({ ...claims, iat: 1_000, exp: 2_000 }),
        await s.googleIdToken({ ...claims, iss: 'https://evil.example' }),
      ]) {
        const res = await s.request('POST', '/auth/google', { json: { idToken } });
        assert.deepEqual([res.status, res.body.message], [401, 'Could not verify Google account']);
      }
      const admin = await s.request('POST', '/auth/google', {
        json: { idToken: await s.googleIdToken({ sub: randomUUID(), email: s.admin.email, email_verified: true }) },
      });
      assert.deepEqual([admin.status, admin.body.message], [403, 'Administrator accounts sign in with their password']);
    });
  });

  describe('POST /api/auth/supabase', () => {
    it('creates or links the account from a verified Supabase token and answers access_token and user', async () => {
      const sub = randomUUID();
      const email = `sb.${sub.slice(0, 8)}@example.com`;
      const token = await s.supabaseToken({ sub, email });
      const res = await s.request<SessionBody>('POST', '/auth/supabase', {
        token,
        json: { id: sub, email, name: 'Katherine Johnson', avatarUrl: 'https://cdn.example/k.png' },
      });
      assert.equal(res.status, 200);
      assert.deepEqual(
        [res.body.user.email, res.body.user.name, res.body.user.avatarUrl, res.body.user.tokenBalance],
        [email, 'Katherine Johnson', 'https://cdn.example/k.png', 200],
      );
      const me = await s.request<UserBody>('GET', '/auth/me', { token: res.body.access_token });
      assert.equal(me.body.id, res.body.user.id);
      // Its address is not counted as verified, whatever user_metadata says (the user can edit it).
      assert.deepEqual(
        (await identityDb.query('SELECT email_verified FROM users WHERE id = $1', [res.body.user.id])).rows[0],
        { email_verified: false },
      );
      const again = await s.request<SessionBody>('POST', '/auth/supabase', {
        token: await s.supabaseToken({ sub, email, user_metadata: { email_verified: true } }),
        json: {},
      });
      assert.equal(again.body.user.id, res.body.user.id);
      // The linked account signs in again without any takeover: its first session goes on.
      assert.equal((await s.request('GET', '/auth/me', { token: res.body.access_token })).status, 200);
    });

    it('never takes over a password account, whatever the token claims about the address (409, with what to do)', async () => {
      // The attack: a Supabase user sets user_metadata.email_verified (supabase.auth.updateUser)
      // for someone else's address; the token is signed by Supabase as any other.
      const user = await s.newUser('sbtakeover');
      const columns = 'password_hash, email_verified, sessions_valid_after, updated_at';
      const before = (await identityDb.query(`SELECT ${columns} FROM users WHERE id = $1`, [user.id])).rows[0];
      for (const claims of [
        { user_metadata: { email_verified: true, email: user.email, sub: randomUUID() } },
        { email_confirmed_at: new Date().toISOString(), user_metadata: { email_verified: true } },
        { user_metadata: { email_verified: false } },
      ]) {
        const sub = randomUUID();
        const token = await s.supabaseToken({
          sub,
          email: user.email,
          phone: '',
          session_id: randomUUID(),
          is_anonymous: false,
          app_metadata: { provider: 'email', providers: ['email'] },
          ...claims,
        });
        const res = await s.request('POST', '/auth/supabase', { token, json: {} });
        assert.deepEqual([res.status, res.body.code, res.body.message], [409, 'CONFLICT', SUPABASE_LINK_REFUSED]);
        assert.equal(
          (
            await identityDb.query("SELECT 1 FROM external_identities WHERE provider = 'supabase' AND subject = $1", [
              sub,
            ])
          ).rowCount,
          0,
          'not linked',
        );
      }
      assert.deepEqual(
        (await identityDb.query(`SELECT ${columns} FROM users WHERE id = $1`, [user.id])).rows[0],
        before,
        'password, verification and sessions untouched',
      );
      assert.equal((await s.request('GET', '/auth/me', { token: user.token })).status, 200, 'the session goes on');
      assert.equal(
        (await s.request('POST', '/auth/login', { json: { email: user.email, password: user.password } })).status,
        200,
        'the password still works',
      );
      const admin = await s.request('POST', '/auth/supabase', {
        token: await s.supabaseToken({
          sub: randomUUID(),
          email: s.admin.email,
          user_metadata: { email_verified: true },
        }),
        json: {},
      });
      assert.deepEqual([admin.status, admin.body.message], [409, SUPABASE_LINK_REFUSED], 'the operator too, never 403');
    });

    it('401 without a token, with a wrongly signed or expired one, or with a body naming another user', async () => {
      const sub = randomUUID();
      const none = await s.request('POST', '/auth/supabase', { json: { id: sub } });
      assert.deepEqual(
        [none.status, none.body.message],
        [401, 'Not authenticated: send the Supabase access token as a bearer token'],
      );
      const forged = await s.request('POST', '/auth/supabase', {
        token: await s.supabaseToken({ sub, email: 'f@example.com' }, 'another-secret-of-enough-length!!'),
        json: {},
      });
      assert.deepEqual(
        [forged.status, forged.body.message],
        [401, 'Not authenticated: the Supabase token is invalid or expired'],
      );
      const expired = await s.request('POST', '/auth/supabase', {
        token: await s.supabaseToken({ sub, email: 'f@example.com', iat: 1_000, exp: 2_000 }),
        json: {},
      });
      assert.equal(expired.status, 401);
      const mismatch = await s.request('POST', '/auth/supabase', {
        token: await s.supabaseToken({ sub, email: 'f@example.com' }),
        json: { id: randomUUID() },
      });
      assert.deepEqual(
        [mismatch.status, mismatch.body.message],
        [401, 'Not authenticated: the Supabase token belongs to another user'],
      );
    });
  });

  describe('sign-in providers this deployment has not configured', () => {
    it('Google and Supabase sign-in answer 501 with a message, never 503 (clients drop the session on 503)', async () => {
      // A second identity instance on the same database (the stack's), without provider settings.
      const { rows } = await identityDb.query<{ db: string }>('SELECT current_database() AS db');
      const bare = await startService(
        createIdentityService({
          JWT_PRIVATE_KEY: s.jwtPrivateKeyPem,
          GOOGLE_CLIENT_ID: '',
          SUPABASE_JWT_SECRET: '',
          ADMIN_EMAIL: '',
          ADMIN_PASSWORD: '',
        }),
        {
          databaseUrl: requireEnv('DATABASE_URL'),
          database: rows[0]!.db,
          bus: s.bus,
          grpcPort: 0,
          logger: createLogger('bare-identity', 'silent'),
        },
      );
      const ledgerAddress = s.services.find((x) => x.name === 'ledger')!;
      const app = createGatewayApp({
        logger: createLogger('unconfigured-test', 'silent'),
        corsOrigins: [],
        services: [
          { name: 'identity', address: `127.0.0.1:${bare.port}` },
          { name: 'ledger', address: `127.0.0.1:${ledgerAddress.port}` },
        ],
      });
      const http = await listen(app, '127.0.0.1', 0);
      try {
        const post = async (path: string, body: unknown, token?: string) => {
          const res = await fetch(`http://127.0.0.1:${http.port}/api${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
            body: JSON.stringify(body),
          });
          return { status: res.status, body: (await res.json()) as { message: string; code: string } };
        };
        const google = await post('/auth/google', {
          idToken: await s.googleIdToken({ sub: randomUUID(), email: 'g@example.com', email_verified: true }),
        });
        assert.deepEqual(
          [google.status, google.body.code, google.body.message],
          [
            501,
            'NOT_CONFIGURED',
            'Google sign-in is not configured on this server. Please sign in with your email and password.',
          ],
        );
        const supabase = await post(
          '/auth/supabase',
          {},
          await s.supabaseToken({ sub: randomUUID(), email: 'sb@example.com' }),
        );
        assert.deepEqual(
          [supabase.status, supabase.body.code, supabase.body.message],
          [
            501,
            'NOT_CONFIGURED',
            'Supabase sign-in is not configured on this server. Please sign in with your email and password.',
          ],
        );
      } finally {
        await http.stop();
        await bare.stop();
      }
    });
  });

  describe('POST /api/admin/login and the admin guard', () => {
    it('gives the admin account (created from ADMIN_EMAIL) a token that opens /api/admin and /api/settings', async () => {
      const res = await s.request<TokenBody>('POST', '/admin/login', {
        form: { username: s.admin.email.toLowerCase(), password: s.admin.password },
      });
      assert.equal(res.status, 200);
      const [, payload] = res.body.access_token.split('.');
      assert.equal(JSON.parse(Buffer.from(payload!, 'base64url').toString()).role, 'admin');
      // Past the guard: a path no route serves answers 404 (not 401/403), so the guard let the call through.
      assert.equal((await s.request('GET', '/admin/no-such-route', { token: res.body.access_token })).status, 404);
      assert.equal((await s.request('GET', '/settings/no-such-route', { token: res.body.access_token })).status, 404);
    });

    it("401 'Invalid admin credentials' for a plain user and for a wrong password; 400 without fields", async () => {
      const user = await s.newUser('notadmin');
      const plain = await s.request('POST', '/admin/login', {
        form: { username: user.email, password: user.password },
      });
      assert.deepEqual([plain.status, plain.body.message], [401, 'Invalid admin credentials']);
      const wrong = await s.request('POST', '/admin/login', {
        form: { username: s.admin.email, password: 'not it at all' },
      });
      assert.deepEqual([wrong.status, wrong.body.message], [401, 'Invalid admin credentials']);
      const empty = await s.request('POST', '/admin/login', { form: { username: '', password: '' } });
      assert.deepEqual([empty.status, empty.body.message], [400, 'Please enter both email and password']);
    });

    it('401 without a token and 403 with a user token on /api/admin/* and /api/settings/*', async () => {
      const user = await s.newUser('guard');
      for (const path of ['/admin/users', '/admin/stats/signups', '/settings/keys/status']) {
        const none = await s.request('GET', path);
        assert.deepEqual([none.status, none.body.message], [401, 'Not authenticated: Authentication required'], path);
        const plain = await s.request('GET', path, { token: user.token });
        assert.deepEqual([plain.status, plain.body.message], [403, 'Admin authentication required'], path);
      }
    });
  });

  describe('GET /api/tokens', () => {
    it('answers the balance and the history with id, description, amount and createdAt', async () => {
      const user = await s.newUser('tokens');
      assert.deepEqual((await s.request('GET', '/tokens/balance', { token: user.token })).body, { balance: 200 });
      const list = await s.request<TransactionsBody>('GET', '/tokens/', { token: user.token });
      assert.equal(list.status, 200);
      assert.equal(list.body.balance, 200);
      assert.equal(list.body.transactions.length, 1);
      const t = list.body.transactions[0]!;
      assert.deepEqual(Object.keys(t).sort(), ['amount', 'createdAt', 'description', 'id']);
      assert.deepEqual([t.description, t.amount], ['Sign-up bonus', 200]);
      assert.ok(!Number.isNaN(Date.parse(t.createdAt ?? '')));
      const bad = await s.request('GET', '/tokens/?limit=0', { token: user.token });
      assert.deepEqual([bad.status, bad.body.message], [400, 'limit must be an integer between 1 and 100']);
    });
  });

  describe('plan fields from billing subscription events', () => {
    it('an activated unlimited plan shows on /me; an immediate cancellation ends it; UserPlanChanged published', async () => {
      const user = await s.newUser('plan');
      const publish = async <T>(type: string, codec: MessageType<T>, payload: T, occurredAt: Date) => {
        const m = outboxMessage(topics.billingSubscription, type, codec, payload, { aggregateId: user.id, occurredAt });
        await s.bus.publish([{ topic: m.topic, key: m.key, value: Buffer.from(m.envelope), headers: {} }]);
      };
      const periodEnd = new Date(Date.now() + 30 * 86_400_000);
      await publish(
        eventTypes.SubscriptionActivated,
        events.SubscriptionActivated,
        {
          subscriptionId: 'sub_test_1',
          userId: user.id,
          plan: 'unlimited',
          billingPeriod: 'monthly',
          periodStart: new Date(),
          periodEnd,
        },
        new Date(Date.now() - 1000),
      );
      const me = () => s.request<UserBody>('GET', '/auth/me', { token: user.token });
      await waitFor(async () => (await me()).body.subscriptionStatus === 'active', 'plan applied');
      const active = (await me()).body;
      assert.deepEqual(
        [
          active.subscriptionPlan,
          active.subscriptionPlanName,
          active.isUnlimited,
          active.stripeSubscriptionId,
          active.subscriptionPeriodEnd,
        ],
        ['unlimited', 'Unlimited', true, 'sub_test_1', periodEnd.toISOString()],
      );
      assert.equal(active.stripeCustomerId, null, 'no customer id before the provider names one');
      await publish(
        eventTypes.SubscriptionStatusChanged,
        events.SubscriptionStatusChanged,
        {
          subscriptionId: 'sub_test_1',
          userId: user.id,
          plan: 'unlimited',
          billingPeriod: 'monthly',
          status: 'active',
          currentPeriodEnd: periodEnd,
          cancelAtPeriodEnd: false,
          stripeCustomerId: 'cus_test_1',
        },
        new Date(Date.now() - 500),
      );
      await waitFor(async () => (await me()).body.stripeCustomerId === 'cus_test_1', 'customer id kept');
      await publish(
        eventTypes.SubscriptionCanceled,
        events.SubscriptionCanceled,
        { subscriptionId: 'sub_test_1', userId: user.id, plan: 'unlimited', immediate: true, effectiveAt: new Date() },
        new Date(),
      );
      await waitFor(async () => (await me()).body.subscriptionStatus === 'canceled', 'plan ended');
      const ended = (await me()).body;
      assert.deepEqual([ended.subscriptionPlan, ended.isUnlimited], ['none', false]);
      const published = await identityDb.query(
        'SELECT count(*)::int AS n FROM outbox WHERE message_key = $1 AND event_type = $2',
        [user.id, eventTypes.UserPlanChanged],
      );
      assert.equal(published.rows[0].n, 2);
    });
  });

  describe('the sign-up consent recorded with the account (ADR 0804)', () => {
    const consentOf = async (id: string) =>
      (await identityDb.query('SELECT consented_at, consent_version FROM users WHERE id = $1', [id])).rows[0] as {
        consented_at: Date | null;
        consent_version: string | null;
      };

    it('register stores the version shown and the time; without one the account is made with none recorded', async () => {
      const before = Date.now();
      const res = await s.request<SessionBody>('POST', '/auth/register', {
        json: {
          email: `consent.${randomUUID().slice(0, 8)}@example.com`,
          password: 'correct horse battery',
          consent_version: '2026-11-signup-18plus',
        },
      });
      assert.equal(res.status, 201);
      const stored = await consentOf(res.body.user.id);
      assert.equal(stored.consent_version, '2026-11-signup-18plus');
      const at = stored.consented_at?.getTime() ?? 0;
      assert.ok(at >= before - 1000 && at <= Date.now() + 1000, 'consented now (allowing for clock rounding)');

      // The /api contract's payload (email and password alone) still creates the account.
      const bare = await s.request<SessionBody>('POST', '/auth/register', {
        json: { email: `noconsent.${randomUUID().slice(0, 8)}@example.com`, password: 'correct horse battery' },
      });
      assert.equal(bare.status, 201);
      assert.deepEqual(await consentOf(bare.body.user.id), { consented_at: null, consent_version: null });
    });

    it('refuses a version that is not a label with 400 and a message, creating nothing', async () => {
      const email = `badconsent.${randomUUID().slice(0, 8)}@example.com`;
      for (const consent_version of ['has spaces', '<script>', 'x'.repeat(65)]) {
        const res = await s.request('POST', '/auth/register', {
          json: { email, password: 'correct horse battery', consent_version },
        });
        assert.equal(res.status, 400, consent_version);
        assert.match(res.body.message, /consent_version/);
      }
      const { rows } = await identityDb.query('SELECT 1 FROM users WHERE lower(email) = $1', [email]);
      assert.equal(rows.length, 0);
    });

    it('Google records the version on the sign-in that creates the account, and keeps it on later ones', async () => {
      const sub = randomUUID();
      const email = `gconsent.${sub.slice(0, 8)}@gmail.com`;
      const idToken = await s.googleIdToken({ sub, email, email_verified: true });
      const res = await s.request<SessionBody>('POST', '/auth/google', {
        json: { idToken, consent_version: '2026-11-signup-18plus' },
      });
      assert.equal(res.status, 200);
      const first = await consentOf(res.body.user.id);
      assert.equal(first.consent_version, '2026-11-signup-18plus');
      assert.ok(first.consented_at instanceof Date);
      const again = await s.request<SessionBody>('POST', '/auth/google', {
        json: { idToken: await s.googleIdToken({ sub, email, email_verified: true }), consent_version: 'v2' },
      });
      assert.equal(again.status, 200);
      assert.deepEqual(await consentOf(res.body.user.id), first, 'a later sign-in changes nothing recorded');
    });
  });
});
