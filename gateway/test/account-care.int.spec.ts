// Accounts people look after themselves, through the running gateway (identity and ledger on real
// Postgres and Kafka, limits on real Redis, e-mail read from a real SMTP server): the routes of the
// API document, their refusals with messages that say what to do, and the bound on the free tokens
// one client can collect by signing up again and again (ADR 0402).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { linkIn, mailTo, waitForMail } from '../../services/platform/test/mailbox.js';
import { rateLimitEnvSchema } from '../src/config.js';
import { DEFAULT_SIGNUPS_PER_HOUR } from '../src/http/rate-limit.js';
import { RESET_REQUESTED } from '../src/routes/account-care.js';
import { startStack, type SessionBody, type Stack, type UserBody } from './support/stack.js';

type Message = { message: string };

describe('account care through the gateway', () => {
  let s: Stack;

  beforeAll(async () => {
    s = await startStack('account-care');
  });
  afterAll(async () => s?.stop());

  it('verifies the address from the welcome e-mail, and says what to do with a used link', async () => {
    const { email, token } = await s.newUser('verify');
    const before = await s.request<UserBody>('GET', '/auth/me', { token });
    assert.equal(before.body.emailVerified, false);
    const [welcome] = await waitForMail(email, 'Confirm your e-mail address');
    const link = linkIn(welcome!, '/auth/verify-email');
    const ok = await s.request<Message>('POST', '/auth/verify-email', { json: { token: link.token } });
    assert.deepEqual([ok.status, ok.body.message], [200, 'Your e-mail address is verified.']);
    const after = await s.request<UserBody>('GET', '/auth/me', { token });
    assert.equal(after.body.emailVerified, true, 'the profile shows it at once (the cache dropped the old one)');
    const again = await s.request<Message>('POST', '/auth/verify-email', { json: { token: link.token } });
    assert.equal(again.status, 404);
    assert.match(again.body.message, /expired or was already used\. Sign in and ask for a new one/);
    const resend = await s.request<Message & { sent: boolean }>('POST', '/auth/verify-email/send', { token });
    assert.deepEqual([resend.status, resend.body.sent], [200, false]);
    const missing = await s.request<Message>('POST', '/auth/verify-email', { json: {} });
    assert.deepEqual([missing.status, missing.body.message], [400, 'token is required: open the link from the e-mail']);
  });

  it('a forgotten password: one answer for every address, and the reset ends the old session', async () => {
    const { email, token } = await s.newUser('forgot');
    const nobody = `nobody.${randomUUID().slice(0, 8)}@example.com`;
    const forKnown = await s.request<Message>('POST', '/auth/forgot-password', { json: { email } });
    const forUnknown = await s.request<Message>('POST', '/auth/forgot-password', { json: { email: nobody } });
    assert.deepEqual([forKnown.status, forKnown.body], [202, { message: RESET_REQUESTED }]);
    assert.deepEqual([forUnknown.status, forUnknown.body], [forKnown.status, forKnown.body]);
    const [reset] = await waitForMail(email, 'Reset your Flatlay password');
    const resetToken = linkIn(reset!, '/auth/reset-password').token;
    const weak = await s.request<Message>('POST', '/auth/reset-password', {
      json: { token: resetToken, password: 'short' },
    });
    assert.deepEqual([weak.status, weak.body.message], [400, 'Password must be at least 8 characters long']);
    const done = await s.request<Message>('POST', '/auth/reset-password', {
      json: { token: resetToken, password: 'a brand new password' },
    });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    const old = await s.request('GET', '/auth/me', { token });
    assert.equal(old.status, 401, 'the session from before the reset ended');
    const signIn = await s.request<SessionBody>('POST', '/auth/login', {
      json: { email, password: 'a brand new password' },
    });
    assert.equal(signIn.status, 200);
    assert.deepEqual(await mailTo(nobody), []);
  });

  it('changes the password (this session goes on with a new token) and the address (confirmed from the new one)', async () => {
    const { email, password, token } = await s.newUser('change');
    const wrong = await s.request<Message>('POST', '/auth/change-password', {
      token,
      json: { current_password: 'not it at all', new_password: 'a second password' },
    });
    assert.deepEqual([wrong.status, wrong.body.message], [422, 'The current password is not correct']);
    const changed = await s.request<SessionBody>('POST', '/auth/change-password', {
      token,
      json: { current_password: password, new_password: 'a second password' },
    });
    assert.equal(changed.status, 200);
    assert.equal((await s.request('GET', '/auth/me', { token })).status, 401, 'the earlier token ended');
    const current = changed.body.access_token;
    assert.equal((await s.request('GET', '/auth/me', { token: current })).status, 200);

    const newEmail = `moved.${randomUUID().slice(0, 8)}@example.com`;
    const asked = await s.request<Message>('POST', '/auth/change-email', {
      token: current,
      json: { new_email: newEmail, password: 'a second password' },
    });
    assert.deepEqual(
      [asked.status, asked.body.message],
      [202, `We have sent a link to ${newEmail}. Open it within 24 hours to use that address.`],
    );
    const [confirm] = await waitForMail(newEmail, 'Confirm your new e-mail address');
    const moved = await s.request<Message & { email: string }>('POST', '/auth/confirm-email', {
      json: { token: linkIn(confirm!, '/auth/confirm-email').token },
    });
    assert.deepEqual(moved.body, { message: `Your account now uses ${newEmail}.`, email: newEmail });
    const me = await s.request<UserBody>('GET', '/auth/me', { token: current });
    assert.deepEqual([me.body.email, me.body.emailVerified], [newEmail, true]);
    await waitForMail(email, 'Your Flatlay e-mail address was changed');
  });

  it('one client collects at most 6 free images an hour: its 4th account in the hour is refused', async () => {
    assert.equal(rateLimitEnvSchema.parse({}).SIGNUPS_PER_CLIENT_PER_HOUR, DEFAULT_SIGNUPS_PER_HOUR);
    assert.equal(DEFAULT_SIGNUPS_PER_HOUR, 3);
    const bound = await startStack('sign-up-bound', {
      perIp: 10_000,
      perEmail: 1_000,
      windowSeconds: 600,
      signUpsPerHour: 3,
    });
    try {
      const signUp = (email: string) =>
        bound.request<SessionBody>('POST', '/auth/register', { json: { email, password: 'long enough please' } });
      let freeTokens = 0;
      const first = `farm.${randomUUID().slice(0, 8)}@example.com`;
      for (const email of [first, `farm.${randomUUID().slice(0, 8)}@example.com`]) {
        const r = await signUp(email);
        assert.equal(r.status, 201);
        freeTokens += r.body.user.tokenBalance;
      }
      // A refused sign-up (the address is taken) does not use up the client's hour.
      assert.equal((await signUp(first)).status, 409);
      const third = await signUp(`farm.${randomUUID().slice(0, 8)}@example.com`);
      assert.equal(third.status, 201);
      freeTokens += third.body.user.tokenBalance;
      const fourth = await bound.request<Message>('POST', '/auth/register', {
        json: { email: `farm.${randomUUID().slice(0, 8)}@example.com`, password: 'long enough please' },
      });
      assert.equal(fourth.status, 429);
      assert.match(fourth.body.message, /^Too many attempts\. Please try again in \d+ seconds\.$/);
      assert.ok(Number(fourth.headers.get('retry-after')) > 900, 'the wait is the rest of the hour');
      assert.equal(freeTokens / 100, 6, 'six free images in the hour, and no more');
    } finally {
      await bound.stop();
    }
  });
});
