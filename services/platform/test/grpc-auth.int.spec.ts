// Internal gRPC authentication over real sockets: a service answers only callers that present a
// valid service credential for it, from a service the registry lets call it; health stays open.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { credentials, Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { ledger } from '@flatlay/proto';
import {
  checkHealth,
  createClient,
  createLogger,
  GrpcServer,
  SERVICE_TOKEN_METADATA,
  ServiceCredential,
  signServiceToken,
  unary,
  type GrpcServerAuth,
} from '../src/index.js';

type LedgerClient = ledger.LedgerServiceClient;

/** Calls GetServiceStatus and answers the raw gRPC outcome (code 0 when it went through). */
function status_(client: LedgerClient, metadata = new Metadata()): Promise<{ code: number; service?: string }> {
  return new Promise((ok) =>
    client.getServiceStatus(
      {},
      metadata,
      { deadline: new Date(Date.now() + 5_000) },
      (error: ServiceError | null, res) => ok(error ? { code: error.code } : { code: status.OK, service: res.service }),
    ),
  );
}

describe('service credentials on internal gRPC', () => {
  const secret = randomBytes(32);
  let server: GrpcServer;
  let address: string;
  const seenMetadata: Array<Record<string, string>> = [];
  const clients: LedgerClient[] = [];
  const track = (c: LedgerClient) => {
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    const logger = createLogger('grpc-auth-test', 'silent');
    const auth: GrpcServerAuth = { service: 'ledger', secret, logger };
    server = new GrpcServer(
      [
        {
          name: 'flatlay.ledger.v1.LedgerService',
          definition: ledger.LedgerServiceService,
          implementation: {
            getServiceStatus: unary(logger, async (_req, metadata) => {
              seenMetadata.push(metadata);
              return { service: 'ledger', version: 'test', schemaVersion: 1, uptimeSeconds: 0 };
            }),
          },
        },
      ],
      auth,
    );
    address = `127.0.0.1:${await server.listen('127.0.0.1', 0)}`;
    server.setServing(true);
  });

  afterAll(async () => {
    for (const c of clients) c.close();
    await server.shutdown(1_000);
  });

  it('answers a caller the registry allows (the gateway), and hides the token from the handler', async () => {
    const client = track(createClient(ledger.LedgerServiceClient, address, new ServiceCredential('gateway', secret)));
    assert.deepEqual(await status_(client), { code: status.OK, service: 'ledger' });
    assert.equal(seenMetadata.at(-1)?.[SERVICE_TOKEN_METADATA], undefined);
  });

  it('answers another allowed service (image spends and refunds tokens)', async () => {
    const client = track(createClient(ledger.LedgerServiceClient, address, new ServiceCredential('image', secret)));
    assert.equal((await status_(client)).code, status.OK);
  });

  it('refuses a call without a credential: UNAUTHENTICATED', async () => {
    const client = track(new ledger.LedgerServiceClient(address, credentials.createInsecure()));
    assert.equal((await status_(client)).code, status.UNAUTHENTICATED);
  });

  it('refuses a credential signed with another secret: UNAUTHENTICATED', async () => {
    const client = track(
      createClient(ledger.LedgerServiceClient, address, new ServiceCredential('gateway', randomBytes(32))),
    );
    assert.equal((await status_(client)).code, status.UNAUTHENTICATED);
  });

  it('refuses a service the registry does not let call it (identity calls nobody): PERMISSION_DENIED', async () => {
    const client = track(createClient(ledger.LedgerServiceClient, address, new ServiceCredential('identity', secret)));
    assert.equal((await status_(client)).code, status.PERMISSION_DENIED);
    const unknown = signServiceToken(secret, {
      sub: 'intruder',
      aud: 'ledger',
      iat: Math.floor(Date.now() / 1000),
      exp: Math.floor(Date.now() / 1000) + 60,
    });
    const raw = track(new ledger.LedgerServiceClient(address, credentials.createInsecure()));
    const md = new Metadata();
    md.set(SERVICE_TOKEN_METADATA, unknown);
    assert.equal((await status_(raw, md)).code, status.PERMISSION_DENIED);
  });

  it('refuses a token meant for another service, an expired one, and a tampered one: UNAUTHENTICATED', async () => {
    const raw = track(new ledger.LedgerServiceClient(address, credentials.createInsecure()));
    const now = Math.floor(Date.now() / 1000);
    const forIdentity = new ServiceCredential('gateway', secret).tokenFor('identity');
    const expired = signServiceToken(secret, { sub: 'gateway', aud: 'ledger', iat: now - 120, exp: now - 60 });
    const valid = new ServiceCredential('gateway', secret).tokenFor('ledger');
    const [h, , s] = valid.split('.');
    const tampered = `${h}.${Buffer.from(JSON.stringify({ sub: 'gateway', aud: 'ledger', iat: now, exp: now + 3600 })).toString('base64url')}.${s}`;
    const noneAlg = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${valid.split('.')[1]}.`;
    for (const token of [forIdentity, expired, tampered, noneAlg, 'not-a-token']) {
      const md = new Metadata();
      md.set(SERVICE_TOKEN_METADATA, token);
      assert.equal((await status_(raw, md)).code, status.UNAUTHENTICATED, token);
    }
  });

  it('keeps the standard health check open for probes', async () => {
    assert.equal(await checkHealth(address), 'SERVING');
    assert.equal(await checkHealth(address, 'flatlay.ledger.v1.LedgerService'), 'SERVING');
  });
});
