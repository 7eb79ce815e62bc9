// The identity service over gRPC on real Postgres and Kafka: sessions survive a restart with a
// persisted key, deletion rules, and the sign-up grant when the ledger is away.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { identity } from '@flatlay/proto';
import { AppError, call, createClient, createLogger, KafkaBus, startService, type RunningService } from '@flatlay/platform';
import { requireEnv } from '../../platform/test/support.js';
import { createIdentityService, type TokenAccountsPort } from '../src/index.js';

describe('identity service', { timeout: 180_000 }, () => {
  let bus: KafkaBus;
  let keyFile: string;
  const logger = createLogger('identity-test', 'silent');
  // A ledger stand-in that is down: the grant is deferred to the ledger's consumer.
  const ledgerDown: TokenAccountsPort = {
    openAccount: async () => {
      throw new AppError('UNAVAILABLE', 'Service unavailable');
    },
    balance: async () => 0,
    close: () => undefined,
  };
  const start = (): Promise<RunningService> =>
    startService(createIdentityService({ JWT_KEY_FILE: keyFile }, { ledger: ledgerDown }), { databaseUrl: requireEnv('DATABASE_URL'), bus, grpcPort: 0, logger });
  const clientOf = (s: RunningService) => createClient(identity.IdentityServiceClient, `127.0.0.1:${s.port}`);

  before(async () => {
    bus = new KafkaBus({ brokers: requireEnv('KAFKA_BROKERS').split(','), clientId: 'identity-test' });
    keyFile = join(await mkdtemp(join(tmpdir(), 'identity-key-')), 'keys', 'jwt-signing-key.pem');
  });
  after(async () => bus?.close());

  it('generates the signing key once (mode 0600) and keeps sessions across a restart; registers even with the ledger away', async () => {
    const first = await start();
    const client = clientOf(first);
    const email = `restart.${randomUUID().slice(0, 8)}@example.com`;
    const session = await call(client, client.register, { email, password: 'long enough please' });
    assert.equal(session.tokenBalance, 0, 'the ledger did not answer: the grant comes from its consumer later');
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
      assert.ok(verified.expiresAt && verified.expiresAt.getTime() > Date.now() + 6 * 86_400_000, 'user tokens last 7 days');
    } finally {
      again.close();
      await second.stop();
    }
  });

  it('DeleteUser: unknown user 404, admin accounts refused, missing identifier 400', async () => {
    const running = await start();
    const client = clientOf(running);
    try {
      await assert.rejects(call(client, client.deleteUser, { userId: randomUUID(), email: '' }), (e: AppError) => e.code === 'NOT_FOUND' && e.message === 'User not found');
      await assert.rejects(call(client, client.deleteUser, { userId: '', email: '' }), (e: AppError) => e.code === 'INVALID_ARGUMENT');
      const adminEmail = `root.${randomUUID().slice(0, 8)}@example.com`;
      const { ensureAdminAccount } = await import('../src/app/admin-account.js');
      await ensureAdminAccount(running.context.pool, adminEmail, 'admin password 1');
      await assert.rejects(call(client, client.deleteUser, { userId: '', email: adminEmail }), (e: AppError) => e.code === 'PERMISSION_DENIED');
      // The admin signs in as admin only through AdminLogin; a plain Login token carries the user role.
      const plain = await call(client, client.login, { email: adminEmail, password: 'admin password 1' });
      assert.equal((await call(client, client.verifyToken, { token: plain.accessToken })).role, 'user');
      const admin = await call(client, client.adminLogin, { username: adminEmail.toUpperCase(), password: 'admin password 1' });
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
      await running.context.pool.query("INSERT INTO users (id, email, password_hash) VALUES ($1, $2, NULL)", [randomUUID(), email]);
      await assert.rejects(call(client, client.login, { email, password: 'anything at all' }), (e: AppError) => e.code === 'UNAUTHENTICATED' && e.message === 'Invalid email or password');
    } finally {
      client.close();
      await running.stop();
    }
  });
});
