// The identity service over gRPC on real Postgres and Kafka: sessions survive a restart with a
// persisted key, deletion rules, what ends sessions, and that identity needs no other service.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { identity } from '@flatlay/proto';
import {
  type AppError,
  call,
  createClient,
  createLogger,
  httpStatusOf,
  ServiceCredential,
  startService,
  type RunningService,
} from '@flatlay/platform';
import { requireEnv, testKafkaBus, type TestKafkaBus } from '../../platform/test/support.js';
import { AccessTokens } from '../src/app/access-tokens.js';
import { Accounts } from '../src/app/accounts.js';
import { ensureAdminAccount } from '../src/app/admin-account.js';
import { GoogleVerifier, SupabaseVerifier } from '../src/adapters/external-verifiers.js';
import { Passwords } from '../src/app/passwords.js';
import { Revocations } from '../src/adapters/revocations.js';
import { loadSigningKey } from '../src/app/signing-key.js';
import { createIdentityService, identityEnvSchema } from '../src/index.js';

describe('identity service', { timeout: 180_000 }, () => {
  let bus: TestKafkaBus;
  let keyFile: string;
  const logger = createLogger('identity-test', 'silent');
  // A database of this file's own (every start below reopens it): another test process's identity
  // on a shared one would relay this one's outbox into its own topics.
  const database = `flatlay_identity_test_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  // No ledger anywhere: identity is a leaf (the ledger grants from UserRegistered).
  const start = (): Promise<RunningService> =>
    startService(createIdentityService({ JWT_KEY_FILE: keyFile }), {
      databaseUrl: requireEnv('DATABASE_URL'),
      database,
      bus,
      grpcPort: 0,
      logger,
    });
  const clientOf = (s: RunningService) =>
    createClient(identity.IdentityServiceClient, `127.0.0.1:${s.port}`, new ServiceCredential('gateway'));

  beforeAll(async () => {
    bus = testKafkaBus('identity-test');
    keyFile = join(await mkdtemp(join(tmpdir(), 'identity-key-')), 'keys', 'jwt-signing-key.pem');
  });
  afterAll(async () => bus?.close());

  it('generates the signing key once (mode 0600) and keeps sessions across a restart; registers with no ledger to call', async () => {
    assert.equal('LEDGER_ADDR' in identityEnvSchema.shape, false, 'identity has no ledger address to configure');
    const first = await start();
    const client = clientOf(first);
    const email = `restart.${randomUUID().slice(0, 8)}@example.com`;
    const session = await call(client, client.register, { email, password: 'long enough please' });
    assert.equal('tokenBalance' in session, false, "the balance is the ledger's, which the gateway asks");
    assert.equal(session.user?.email, email);
    client.close();
    const pem = await readFile(keyFile, 'utf8');
    assert.equal((await stat(keyFile)).mode & 0o777, 0o600);
    await first.stop();

    const second = await start();
    const again = clientOf(second);
    try {
      assert.equal(await readFile(keyFile, 'utf8'), pem, 'the same key is read back');
      const verified = await call(again, again.verifyToken, { token: session.accessToken });
      assert.deepEqual([verified.userId, verified.role], [session.user?.id, 'user']);
      assert.ok(
        verified.expiresAt && verified.expiresAt.getTime() > Date.now() + 6 * 86_400_000,
        'user tokens last 7 days',
      );
    } finally {
      again.close();
      await second.stop();
    }
  });

  it('DeleteUser: unknown user 404, admin accounts refused as a conflict (409, not 403), missing identifier 400', async () => {
    const running = await start();
    const client = clientOf(running);
    try {
      await assert.rejects(
        call(client, client.deleteUser, { userId: randomUUID(), email: '' }),
        (e: AppError) => e.code === 'NOT_FOUND' && e.message === 'User not found',
      );
      await assert.rejects(
        call(client, client.deleteUser, { userId: '', email: '' }),
        (e: AppError) => e.code === 'INVALID_ARGUMENT',
      );
      const adminEmail = `root.${randomUUID().slice(0, 8)}@example.com`;
      await ensureAdminAccount(running.context.pool, adminEmail, 'admin password 1');
      // The admin web client signs the operator out on any 401/403: a business refusal is a conflict.
      await assert.rejects(
        call(client, client.deleteUser, { userId: '', email: adminEmail }),
        (e: AppError) =>
          e.code === 'CONFLICT' &&
          httpStatusOf(e.code) === 409 &&
          e.message === 'Administrator accounts cannot be deleted',
      );
      // The admin signs in as admin only through AdminLogin; a plain Login token carries the user role.
      const plain = await call(client, client.login, { email: adminEmail, password: 'admin password 1' });
      assert.equal((await call(client, client.verifyToken, { token: plain.accessToken })).role, 'user');
      const admin = await call(client, client.adminLogin, {
        username: adminEmail.toUpperCase(),
        password: 'admin password 1',
      });
      assert.equal((await call(client, client.verifyToken, { token: admin.accessToken })).role, 'admin');
    } finally {
      client.close();
      await running.stop();
    }
  });

  it('an account created by an external sign-in has no password: password login answers the usual 401', async () => {
    const running = await start();
    const client = clientOf(running);
    try {
      const email = `nopw.${randomUUID().slice(0, 8)}@example.com`;
      await running.context.pool.query('INSERT INTO users (id, email, password_hash) VALUES ($1, $2, NULL)', [
        randomUUID(),
        email,
      ]);
      await assert.rejects(
        call(client, client.login, { email, password: 'anything at all' }),
        (e: AppError) => e.code === 'UNAUTHENTICATED' && e.message === 'Invalid email or password',
      );
    } finally {
      client.close();
      await running.stop();
    }
  });
  it('the admin password update at start ends the earlier admin tokens; a restart with the same password ends nothing', async () => {
    const running = await start();
    const client = clientOf(running);
    const { pool } = running.context;
    try {
      const email = `ops.${randomUUID().slice(0, 8)}@example.com`;
      assert.equal(await ensureAdminAccount(pool, email, 'first admin password'), 'created');
      const before = (await call(client, client.adminLogin, { username: email, password: 'first admin password' }))
        .accessToken;
      const plain = (await call(client, client.login, { email, password: 'first admin password' })).accessToken;
      assert.equal(
        await ensureAdminAccount(pool, email, 'first admin password'),
        'unchanged',
        'a restart keeps the operator signed in',
      );
      assert.equal((await call(client, client.verifyToken, { token: before })).role, 'admin');

      assert.equal(await ensureAdminAccount(pool, email, 'second admin password'), 'updated');
      const ended = (e: AppError) =>
        e.code === 'UNAUTHENTICATED' && e.message === 'Not authenticated: the session has ended. Please sign in again.';
      await assert.rejects(call(client, client.verifyToken, { token: before }), ended);
      await assert.rejects(call(client, client.verifyToken, { token: plain }), ended);
      await assert.rejects(
        call(client, client.adminLogin, { username: email, password: 'first admin password' }),
        (e: AppError) => e.code === 'UNAUTHENTICATED',
      );
      // Issued right after the update (very likely in the same second): it works.
      const after = (await call(client, client.adminLogin, { username: email, password: 'second admin password' }))
        .accessToken;
      assert.equal((await call(client, client.verifyToken, { token: after })).role, 'admin');
    } finally {
      client.close();
      await running.stop();
    }
  });

  it('a password change ends every earlier session at once, and a token issued in the same millisecond after it works', async () => {
    const running = await start();
    const client = clientOf(running);
    const { pool } = running.context;
    // The use case as the service builds it, on the same key and database, with a clock that
    // stands still: every token below has the same iat, so only the session instant tells them apart.
    const frozen = new Date();
    const accounts = new Accounts({
      pool,
      logger,
      passwords: new Passwords(),
      tokens: new AccessTokens(await loadSigningKey({ keyFile }, logger), {
        issuer: 'flatlay',
        audience: 'flatlay-api',
        ttlSeconds: 3600,
        adminTtlSeconds: 600,
      }),
      revocations: new Revocations(pool),
      google: new GoogleVerifier(undefined),
      supabase: new SupabaseVerifier(undefined),
      clock: () => frozen,
    });
    const verify = (token: string) => call(client, client.verifyToken, { token });
    const ended = (e: AppError) =>
      e.code === 'UNAUTHENTICATED' && /^Not authenticated: the session has ended/.test(e.message);
    try {
      const email = `change.${randomUUID().slice(0, 8)}@example.com`;
      const first = await accounts.register(email, 'first password 1');
      const other = await accounts.login(email, 'first password 1');
      await assert.rejects(
        accounts.changePassword(first.user.id, 'not the password', 'second password 2'),
        (e: AppError) => e.code === 'UNPROCESSABLE' && e.message === 'The current password is not correct',
      );
      assert.equal((await verify(first.accessToken)).userId, first.user.id, 'a refused change ends nothing');

      const changed = await accounts.changePassword(first.user.id, 'first password 1', 'second password 2');
      await assert.rejects(verify(first.accessToken), ended);
      await assert.rejects(verify(other.accessToken), ended);
      assert.equal((await verify(changed.accessToken)).userId, first.user.id);
      await assert.rejects(accounts.login(email, 'first password 1'), (e: AppError) => e.code === 'UNAUTHENTICATED');
      const next = await accounts.login(email, 'second password 2');
      assert.equal((await verify(next.accessToken)).userId, first.user.id);

      // A second change in the same millisecond still ends the sessions of the first.
      const again = await accounts.setPassword(first.user.id, 'third password 3');
      await assert.rejects(verify(changed.accessToken), ended);
      await assert.rejects(verify(next.accessToken), ended);
      assert.equal((await verify(again.accessToken)).userId, first.user.id);
    } finally {
      client.close();
      await running.stop();
    }
  });
});
