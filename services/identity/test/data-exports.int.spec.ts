// Data export requests (ADR 0403) on identity's real Postgres, with the e-mail read from a real
// SMTP server: a request is one row however often it is asked for, a worker that dies holding it
// leaves it to the next one once its lease ends, and completing it (twice, as a retried worker
// would) queues exactly one e-mail with the archive's link.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { MAIL_BASE_URL, startIdentityWithMail, type IdentityMailStack } from './support/mail-stack.js';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { identity } from '@flatlay/proto';
import { call, type RunningService } from '@flatlay/platform';
import { mailTo, waitForMail } from '../../platform/test/mailbox.js';
import { DataExports, MAX_EXPORT_ATTEMPTS } from '../src/app/data-exports.js';

const BASE = MAIL_BASE_URL;

describe('data export requests', () => {
  let stack: IdentityMailStack;
  let service: RunningService;
  let client: identity.IdentityServiceClient;

  beforeAll(async () => {
    stack = await startIdentityWithMail('export');
    ({ service, client } = stack);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('one request however often asked; a dead worker’s claim comes back after its lease; one e-mail', async () => {
    const email = `export.${randomUUID().slice(0, 8)}@example.com`;
    const { user } = await call(client, client.register, { email, password: 'long enough please' });
    const userId = user!.id;
    // A clock of the test's own: the lease ends when the test says so, not after a wait.
    let now = new Date('2030-01-01T12:00:00Z');
    const exports = new DataExports(service.context.pool, () => now);

    const first = await exports.request(userId);
    assert.equal(await exports.request(userId), first, 'asking again while it is being made answers the same request');

    const claimed = await exports.claim(60);
    assert.deepEqual(claimed, { id: first, userId });
    assert.equal(await exports.claim(60), undefined, 'held: no other worker takes it');
    // The worker dies here. A minute later the request is due again, for the next worker.
    now = new Date(now.getTime() + 61_000);
    assert.deepEqual(await exports.claim(60), { id: first, userId }, 'back after the lease');

    const path = '/files/exports/u/e.json?expires=1&signature=s';
    const expires = new Date(now.getTime() + 7 * 86_400_000);
    assert.equal(await exports.complete(first, path, expires), true);
    assert.equal(await exports.complete(first, path, expires), false, 'a retried completion sends nothing more');
    assert.equal(await exports.claim(60), undefined, 'done: nothing is due');

    const [mail] = await waitForMail(email, 'Your Flatlay data export is ready');
    assert.ok(mail!.text.includes(`${BASE}${path}`), mail!.text);
    const all = (await mailTo(email)).filter((m) => m.subject.includes('data export'));
    assert.equal(all.length, 1, 'exactly one e-mail');
    // A later request is a new one (the first is done).
    assert.notEqual(await exports.request(userId), first);
  });

  it('refuses an unknown user, and completes nothing for a deleted one', async () => {
    await assert.rejects(new DataExports(service.context.pool).request(randomUUID()), { code: 'NOT_FOUND' });
    const { user } = await call(client, client.register, {
      email: `gone.${randomUUID().slice(0, 8)}@example.com`,
      password: 'long enough please',
    });
    const exports = new DataExports(service.context.pool);
    const id = await exports.request(user!.id);
    await call(client, client.deleteUser, { userId: user!.id, email: '' });
    assert.equal(await exports.complete(id, '/files/x.json', new Date()), false, 'its request went with the account');
  });

  it('gives a request up after its last claim runs out: one e-mail saying so, and a new ask starts afresh', async () => {
    const email = `export.fail.${randomUUID().slice(0, 8)}@example.com`;
    const { user } = await call(client, client.register, { email, password: 'long enough please' });
    const userId = user!.id;
    let now = new Date('2040-01-01T12:00:00Z');
    const exports = new DataExports(service.context.pool, () => now);
    // This test counts the claims of one request: the first test left another open (its last ask).
    await service.context.pool.query('DELETE FROM data_exports WHERE completed_at IS NULL');
    const first = await exports.request(userId);
    // Every worker fails on it (or dies): each claim's lease runs out.
    for (let i = 1; i <= MAX_EXPORT_ATTEMPTS; i++) {
      assert.deepEqual(await exports.claim(60), { id: first, userId }, `claim ${i}`);
      now = new Date(now.getTime() + 61_000);
    }
    assert.equal(await exports.claim(60), undefined, 'not claimed past its bound');
    assert.equal(await exports.claim(60), undefined);
    const [mail] = await waitForMail(email, 'Your Flatlay data export could not be made');
    assert.ok(mail!.text.includes(`${BASE}/account`), mail!.text);
    assert.equal((await mailTo(email)).filter((m) => m.subject.includes('data export')).length, 1, 'told once');
    assert.equal(
      await exports.complete(first, '/files/x.json', now),
      false,
      'a worker finishing late sends no "ready" e-mail for a request already given up',
    );
    const again = await exports.request(userId);
    assert.notEqual(again, first, 'a new ask is a new request');
    assert.deepEqual(await exports.claim(60), { id: again, userId });
  });
});
