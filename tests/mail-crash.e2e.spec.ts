// An e-mail survives a crash (ADR 0402): the product, as `npm start` runs it, is killed with
// SIGKILL after a password reset was asked for and before its e-mail could go out (the mail server
// is not reachable then, so the message waits in identity's mail outbox), and started again on
// the same data with the mail server back: exactly one reset e-mail arrives, and one welcome.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, it } from 'vitest';
import { createPool, databaseUrl, freePort } from '@flatlay/platform';
import { mailTo, testSmtpUrl, waitForMail } from '../services/platform/test/mailbox.js';
import { waitFor } from '../services/platform/test/support.js';
import { restartableProduct } from './support/embedded-product.js';

describe('e-mail across a crash', () => {
  const cleanup: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => {});
  });

  it('a reset asked for just before a kill -9 is delivered exactly once after the restart', async () => {
    const product = await restartableProduct('mailcrash', cleanup);
    const { base } = product;
    const start = (smtpUrl: string) => product.start({ SMTP_URL: smtpUrl });
    const post = (path: string, body: unknown) =>
      fetch(`${base}/api${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    // A port nobody listens on: every send fails, and the messages wait in the outbox.
    const first = await start(`smtp://127.0.0.1:${await freePort()}`);
    const email = `crash.mail.${randomUUID().slice(0, 8)}@example.com`;
    assert.equal((await post('/auth/register', { email, password: 'long enough please' })).status, 201);
    assert.equal((await post('/auth/forgot-password', { email })).status, 202);
    const identityDb = createPool(databaseUrl(product.databaseUrl, `${product.prefix}identity`), 2);
    cleanup.push(() => identityDb.end());
    const waiting = async () =>
      (
        await identityDb.query<{ kind: string; attempts: number }>(
          'SELECT kind, attempts FROM mail_outbox ORDER BY kind',
        )
      ).rows;
    // Both messages were tried and are waiting for the mail server: the kill lands between the
    // request and its e-mail.
    await waitFor(
      async () => {
        const rows = await waiting();
        return rows.length === 2 && rows.every((r) => r.attempts >= 1);
      },
      'the welcome and reset e-mails tried once and waiting',
      60_000,
    );
    first.child.kill('SIGKILL');
    await first.exited;
    assert.deepEqual(await mailTo(email), [], 'nothing went out before the crash');

    await start(testSmtpUrl());
    await waitForMail(email, 'Reset your Flatlay password');
    await waitFor(async () => (await waiting()).length === 0, 'the mail outbox empty', 60_000);
    const received = await mailTo(email);
    assert.deepEqual(received.map((m) => m.subject).sort(), [
      'Confirm your e-mail address for Flatlay',
      'Reset your Flatlay password',
    ]);
    assert.equal(new Set(received.map((m) => m.messageId)).size, 2);
  });
});
