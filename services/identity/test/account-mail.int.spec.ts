// Accounts people look after themselves, over identity's gRPC API on real Postgres and Kafka, with
// the e-mail read from a real SMTP server (the test mailbox): verify an address, reset a forgotten password
// (the old sessions end), change the password and the address; every link single-use, and an
// address without an account answered exactly like one with.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { MAIL_BASE_URL, startIdentityWithMail, type IdentityMailStack } from './support/mail-stack.js';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { identity } from '@flatlay/proto';
import { type AppError, call, type RunningService } from '@flatlay/platform';
import { linkIn, mailTo, waitForMail } from '../../platform/test/mailbox.js';
import { RESET_MAILS_PER_HOUR } from '../src/domain/index.js';
import { waitFor } from '../../platform/test/support.js';

const BASE = MAIL_BASE_URL;
const refusedLink = (e: AppError) => e.code === 'NOT_FOUND' && /expired or was already used/.test(e.message);

describe('account e-mail', () => {
  let stack: IdentityMailStack;
  let service: RunningService;
  let client: identity.IdentityServiceClient;
  const address = () => `care.${randomUUID().slice(0, 8)}@example.com`;

  beforeAll(async () => {
    stack = await startIdentityWithMail('mail');
    ({ service, client } = stack);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('a new account is sent one link that verifies its address, once', async () => {
    const email = address();
    const session = await call(client, client.register, { email, password: 'long enough please' });
    assert.equal(session.user?.emailVerified, false);
    const [welcome] = await waitForMail(email, 'Confirm your e-mail address');
    const link = linkIn(welcome!, '/auth/verify-email');
    assert.ok(link.url.startsWith(`${BASE}/auth/verify-email#token=`), link.url);
    assert.match(welcome!.html, /Confirm my e-mail address/);

    const verified = await call(client, client.verifyEmail, { token: link.token });
    assert.equal(verified.user?.emailVerified, true);
    const profile = await call(client, client.getProfile, { userId: session.user!.id });
    assert.equal(profile.user?.emailVerified, true);
    await assert.rejects(call(client, client.verifyEmail, { token: link.token }), refusedLink);
    // Verified: asking again sends nothing.
    assert.equal((await call(client, client.requestEmailVerification, { userId: session.user!.id })).sent, false);
    assert.equal((await mailTo(email)).length, 1);
  });

  it('a newer verification e-mail replaces the older one', async () => {
    const email = address();
    const session = await call(client, client.register, { email, password: 'long enough please' });
    const [first] = await waitForMail(email, 'Confirm your e-mail address');
    assert.equal((await call(client, client.requestEmailVerification, { userId: session.user!.id })).sent, true);
    const both = await waitForMail(email, 'Confirm your e-mail address', 2);
    await assert.rejects(
      call(client, client.verifyEmail, { token: linkIn(first!, '/auth/verify-email').token }),
      refusedLink,
    );
    await call(client, client.verifyEmail, { token: linkIn(both[1]!, '/auth/verify-email').token });
  });

  it('a forgotten password: the same answer for any address, a one-hour single-use link, every old session ends', async () => {
    const email = address();
    const old = await call(client, client.register, { email, password: 'the old password' });
    await waitForMail(email, 'Confirm your e-mail address');
    const nobody = address();
    // The same (empty) answer for an address with no account, and nothing is sent to it.
    assert.deepEqual(await call(client, client.requestPasswordReset, { email: nobody }), {});
    assert.deepEqual(await call(client, client.requestPasswordReset, { email: email.toUpperCase() }), {});
    const [reset] = await waitForMail(email, 'Reset your Flatlay password');
    const { token } = linkIn(reset!, '/auth/reset-password');
    assert.match(reset!.text, /works once, for 1 hour/);

    await assert.rejects(
      call(client, client.resetPassword, { token, newPassword: 'short' }),
      (e: AppError) => e.code === 'INVALID_ARGUMENT' && /at least 8/.test(e.message),
    );
    // A verification link is not a reset link.
    const welcome = (await mailTo(email)).find((m) => m.subject.includes('Confirm'))!;
    await assert.rejects(
      call(client, client.resetPassword, {
        token: linkIn(welcome, '/auth/verify-email').token,
        newPassword: 'x'.repeat(9),
      }),
      refusedLink,
    );
    await call(client, client.resetPassword, { token, newPassword: 'the new password' });
    await assert.rejects(
      call(client, client.verifyToken, { token: old.accessToken }),
      (e: AppError) => e.code === 'UNAUTHENTICATED',
      'the session from before the reset has ended',
    );
    await assert.rejects(
      call(client, client.login, { email, password: 'the old password' }),
      (e: AppError) => e.code === 'UNAUTHENTICATED',
    );
    const fresh = await call(client, client.login, { email, password: 'the new password' });
    assert.equal(fresh.user?.emailVerified, true, 'the reset link proved the address too');
    await assert.rejects(call(client, client.resetPassword, { token, newPassword: 'another one again' }), refusedLink);
    assert.deepEqual(await mailTo(nobody), []);
  });

  it('a changed password ends the other sessions and signs this one in afresh', async () => {
    const email = address();
    const first = await call(client, client.register, { email, password: 'first password' });
    const userId = first.user!.id;
    await assert.rejects(
      call(client, client.changePassword, {
        userId,
        currentPassword: 'wrong password',
        newPassword: 'second password',
      }),
      (e: AppError) => e.code === 'UNPROCESSABLE' && e.message === 'The current password is not correct',
    );
    const changed = await call(client, client.changePassword, {
      userId,
      currentPassword: 'first password',
      newPassword: 'second password',
    });
    await assert.rejects(call(client, client.verifyToken, { token: first.accessToken }));
    assert.equal((await call(client, client.verifyToken, { token: changed.accessToken })).userId, userId);
  });

  it('a new address: confirmed from the new mailbox, the old one told, a taken address refused', async () => {
    const email = address();
    const newEmail = address();
    const session = await call(client, client.register, { email, password: 'long enough please' });
    const userId = session.user!.id;
    await assert.rejects(
      call(client, client.requestEmailChange, { userId, password: 'not my password', newEmail }),
      (e: AppError) => e.code === 'UNPROCESSABLE',
    );
    const taken = address();
    await call(client, client.register, { email: taken, password: 'long enough please' });
    await assert.rejects(
      call(client, client.requestEmailChange, { userId, password: 'long enough please', newEmail: taken }),
      (e: AppError) => e.code === 'ALREADY_EXISTS',
    );
    await call(client, client.requestEmailChange, { userId, password: 'long enough please', newEmail });
    const profile = await call(client, client.getProfile, { userId });
    assert.equal(profile.user?.email, email, 'nothing changes before the new address confirms');
    const [confirm] = await waitForMail(newEmail, 'Confirm your new e-mail address');
    const moved = await call(client, client.confirmEmailChange, {
      token: linkIn(confirm!, '/auth/confirm-email').token,
    });
    assert.deepEqual([moved.user?.email, moved.user?.emailVerified], [newEmail, true]);
    const [told] = await waitForMail(email, 'Your Flatlay e-mail address was changed');
    assert.ok(told!.text.includes(newEmail));
    await call(client, client.login, { email: newEmail, password: 'long enough please' });
    await assert.rejects(
      call(client, client.login, { email, password: 'long enough please' }),
      (e: AppError) => e.code === 'UNAUTHENTICATED',
    );
  });
  it('sends at most 3 reset e-mails to one address in an hour, answering every request the same', async () => {
    const email = address();
    const { user } = await call(client, client.register, { email, password: 'long enough please' });
    // Three in turn, each message arriving (a newer link replaces an unsent older message).
    for (let n = 1; n <= RESET_MAILS_PER_HOUR; n++) {
      assert.deepEqual(await call(client, client.requestPasswordReset, { email }), {});
      await waitForMail(email, 'Reset your Flatlay password', n);
    }
    // Then more at once: the same answer, and nothing more is made or sent.
    const answers = await Promise.all([1, 2, 3].map(() => call(client, client.requestPasswordReset, { email })));
    assert.deepEqual(answers, [{}, {}, {}], 'nothing tells the caller that the limit was reached');
    const sent = await mailTo(email);
    const pool = service.context.pool;
    const { rows } = await pool.query(
      "SELECT count(*)::int AS n FROM account_links WHERE user_id = $1 AND purpose = 'reset-password'",
      [user!.id],
    );
    assert.equal(rows[0].n, RESET_MAILS_PER_HOUR, 'three links made');
    await waitFor(async () => {
      const { rows: queued } = await pool.query('SELECT count(*)::int AS n FROM mail_outbox WHERE recipient = $1', [
        email,
      ]);
      return queued[0].n === 0;
    }, 'the outbox emptied');
    const resets = (await mailTo(email)).filter((m) => m.subject.includes('Reset your'));
    assert.equal(resets.length, RESET_MAILS_PER_HOUR, 'and no fourth message');
    assert.ok(sent.length >= RESET_MAILS_PER_HOUR);
  });
});
