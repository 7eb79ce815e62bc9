// Internal gRPC authentication over real sockets: a service answers only callers that present a
// valid service credential for it, signed with that caller's own key, for a method the registry
// lets that caller call; health stays open.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { credentials, Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { ledger } from '@flatlay/proto';
import {
  checkHealth,
  createClient,
  createLogger,
  generateServiceKeys,
  GrpcServer,
  publicKeyFile,
  publicKeyPem,
  publicKeysOf,
  readPublicKeys,
  SERVICE_TOKEN_METADATA,
  ServiceCredential,
  signServiceToken,
  unary,
  writePublicKeys,
  type CallerName,
  type GrpcServerAuth,
} from '../src/index.js';

type LedgerClient = ledger.LedgerServiceClient;

type Outcome = { code: number; details?: string };
const outcome = (ok: (o: Outcome) => void) => (error: ServiceError | null) =>
  ok(error ? { code: error.code, details: error.details } : { code: status.OK });

/** Calls Adjust (the admin's credit or debit), answering the raw gRPC outcome. */
const adjust = (client: LedgerClient) =>
  new Promise<Outcome>((ok) =>
    client.adjust(
      { userId: 'u1', adjustmentId: 'a1', operatorId: 'op', reason: 'test', direction: 'add', tokens: 1_000_000 },
      new Metadata(),
      { deadline: new Date(Date.now() + 5_000) },
      outcome(ok),
    ),
  );
/** Calls Refund (what a generation worker gives back for a failed job), answering the raw gRPC outcome. */
const refund = (client: LedgerClient) =>
  new Promise<Outcome>((ok) =>
    client.refund(
      { userId: 'u1', imageId: 'i1' },
      new Metadata(),
      { deadline: new Date(Date.now() + 5_000) },
      outcome(ok),
    ),
  );

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
  // This deployment's key pairs (each caller its own), and a credential signed with each.
  const keys = generateServiceKeys();
  const as = (caller: CallerName) => new ServiceCredential(caller, keys[caller].privateKey);
  const handled: string[] = [];
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
    const auth: GrpcServerAuth = { service: 'ledger', publicKeys: publicKeysOf(keys), logger };
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
            adjust: unary(logger, async () => {
              handled.push('Adjust');
              return { balance: 1_000_000, applied: 1_000_000 };
            }),
            refund: unary(logger, async () => {
              handled.push('Refund');
              return { refunded: 100, balance: 100 };
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
    const client = track(createClient(ledger.LedgerServiceClient, address, as('gateway')));
    assert.deepEqual(await status_(client), { code: status.OK, service: 'ledger' });
    assert.equal(seenMetadata.at(-1)?.[SERVICE_TOKEN_METADATA], undefined);
  });

  it('refuses a call without a credential: UNAUTHENTICATED', async () => {
    const client = track(new ledger.LedgerServiceClient(address, credentials.createInsecure()));
    assert.equal((await status_(client)).code, status.UNAUTHENTICATED);
  });

  it("refuses a gateway credential forged with another key (the worker's, or a new one): UNAUTHENTICATED", async () => {
    for (const forger of [keys['image-worker'].privateKey, generateKeyPairSync('ed25519').privateKey]) {
      const forged = track(createClient(ledger.LedgerServiceClient, address, new ServiceCredential('gateway', forger)));
      assert.equal((await status_(forged)).code, status.UNAUTHENTICATED);
      assert.equal((await adjust(forged)).code, status.UNAUTHENTICATED);
    }
    assert.deepEqual(handled, []);
  });

  it("refuses the worker's credential calling Adjust: PERMISSION_DENIED, before the handler; its Refund passes", async () => {
    const worker = track(createClient(ledger.LedgerServiceClient, address, as('image-worker')));
    const refused = await adjust(worker);
    assert.equal(refused.code, status.PERMISSION_DENIED);
    assert.match(refused.details ?? '', /image-worker may not call \/flatlay\.ledger\.v1\.LedgerService\/Adjust/);
    assert.equal((await status_(worker)).code, status.PERMISSION_DENIED, 'nor anything else it has no edge for');
    assert.deepEqual(handled, [], 'Adjust never ran');
    assert.equal((await refund(worker)).code, status.OK);
    assert.deepEqual(handled, ['Refund']);
  });

  it('lets the image service Refund but not Adjust, and the gateway Adjust', async () => {
    handled.length = 0;
    assert.equal(
      (await adjust(track(createClient(ledger.LedgerServiceClient, address, as('image'))))).code,
      status.PERMISSION_DENIED,
    );
    assert.equal((await refund(track(createClient(ledger.LedgerServiceClient, address, as('image'))))).code, status.OK);
    assert.equal(
      (await adjust(track(createClient(ledger.LedgerServiceClient, address, as('gateway'))))).code,
      status.OK,
    );
    assert.deepEqual(handled, ['Refund', 'Adjust']);
  });

  it('refuses a service the registry does not let call it (identity calls nobody): PERMISSION_DENIED', async () => {
    const client = track(createClient(ledger.LedgerServiceClient, address, as('identity')));
    assert.equal((await status_(client)).code, status.PERMISSION_DENIED);
    const unknown = signServiceToken(keys.gateway.privateKey, {
      sub: 'intruder',
      aud: 'ledger',
      iat: Math.floor(Date.now() / 1000),
      exp: Math.floor(Date.now() / 1000) + 60,
    });
    const raw = track(new ledger.LedgerServiceClient(address, credentials.createInsecure()));
    const md = new Metadata();
    md.set(SERVICE_TOKEN_METADATA, unknown);
    assert.equal((await status_(raw, md)).code, status.UNAUTHENTICATED, 'a caller with no key of its own');
  });

  it('refuses a token meant for another service, an expired one, and a tampered one: UNAUTHENTICATED', async () => {
    const raw = track(new ledger.LedgerServiceClient(address, credentials.createInsecure()));
    const now = Math.floor(Date.now() / 1000);
    const forIdentity = as('gateway').tokenFor('identity');
    const expired = signServiceToken(keys.gateway.privateKey, {
      sub: 'gateway',
      aud: 'ledger',
      iat: now - 120,
      exp: now - 60,
    });
    const valid = as('gateway').tokenFor('ledger');
    const [h, , s] = valid.split('.');
    const tampered = `${h}.${Buffer.from(JSON.stringify({ sub: 'gateway', aud: 'ledger', iat: now, exp: now + 3600 })).toString('base64url')}.${s}`;
    const noneAlg = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${valid.split('.')[1]}.`;
    // Unsigned payloads that are not claims at all (read before the signature names its key).
    const bare = (payload: string) => `${h}.${Buffer.from(payload).toString('base64url')}.${s}`;
    for (const token of [
      forIdentity,
      expired,
      tampered,
      noneAlg,
      'not-a-token',
      bare('null'),
      bare('[1]'),
      bare('"x"'),
    ]) {
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

describe("a caller's key rotation", () => {
  // The gateway's new key is added to its public key file beside the old one (both accepted),
  // then the gateway signs with the new one, then the old one is removed: no call is refused.
  const keys = generateServiceKeys();
  const next = generateKeyPairSync('ed25519');
  const dir = mkdtempSync(join(tmpdir(), 'flatlay-rotation-'));
  let server: GrpcServer;
  let address: string;
  const clients: LedgerClient[] = [];

  beforeAll(async () => {
    writePublicKeys(dir, keys);
    appendFileSync(join(dir, publicKeyFile('gateway')), publicKeyPem(next.publicKey));
    const logger = createLogger('grpc-rotation-test', 'silent');
    const publicKeys = readPublicKeys(dir, { caller: 'ledger', privateKey: keys.ledger.privateKey });
    server = new GrpcServer(
      [
        {
          name: 'flatlay.ledger.v1.LedgerService',
          definition: ledger.LedgerServiceService,
          implementation: {
            getServiceStatus: unary(logger, async () => ({
              service: 'ledger',
              version: 'test',
              schemaVersion: 1,
              uptimeSeconds: 0,
            })),
          },
        },
      ],
      { service: 'ledger', publicKeys, logger },
    );
    address = `127.0.0.1:${await server.listen('127.0.0.1', 0)}`;
    server.setServing(true);
  });

  afterAll(async () => {
    for (const c of clients) c.close();
    await server.shutdown(1_000);
    rmSync(dir, { recursive: true, force: true });
  });

  const signedWith = (key: typeof next.privateKey) => {
    const client = createClient(ledger.LedgerServiceClient, address, new ServiceCredential('gateway', key));
    clients.push(client);
    return client;
  };

  it('accepts the caller signing with its old key and with its new one, and no third', async () => {
    assert.equal((await status_(signedWith(keys.gateway.privateKey))).code, status.OK);
    assert.equal((await status_(signedWith(next.privateKey))).code, status.OK);
    const stranger = generateKeyPairSync('ed25519').privateKey;
    assert.equal((await status_(signedWith(stranger))).code, status.UNAUTHENTICATED);
  });

  it('starts a component whose own file holds two keys when one is its own, and refuses one that holds neither', () => {
    assert.equal(readPublicKeys(dir, { caller: 'gateway', privateKey: next.privateKey }).get('gateway')?.length, 2);
    assert.throws(
      () => readPublicKeys(dir, { caller: 'gateway', privateKey: generateKeyPairSync('ed25519').privateKey }),
      /SERVICE_PRIVATE_KEY is not gateway's key/,
    );
  });
});
