// Google sign-in when Google's certificates cannot be fetched: a token that is not a JWT at all is
// refused (400) before anything is asked of identity or Google, and a real token answers the
// documented 503 (a real outage). Real identity on Postgres and Kafka; Google's certificate
// endpoint is a local server that is down (500) and counts what it was asked.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createLogger, startService, type RunningService } from '@flatlay/platform';
import { createIdentityService } from '@flatlay/identity';
import { requireEnv } from '../../services/platform/test/support.js';
import { createGatewayApp, listen } from '../src/index.js';
import { GOOGLE_TOKEN_MALFORMED } from '@flatlay/platform';
import { GOOGLE_CLIENT_ID, startStack, type Stack } from './support/stack.js';

describe('Google sign-in during an outage of Google certificates', { timeout: 240_000 }, () => {
  let s: Stack;
  let certs: Server;
  let certRequests = 0;
  let identity: RunningService;
  let gateway: { port: number; stop(): Promise<void> };

  beforeAll(async () => {
    s = await startStack('google-outage-test');
    certs = createServer((_req, res) => {
      certRequests += 1;
      res.writeHead(500, { 'content-type': 'text/plain' }).end('down');
    });
    await new Promise<void>((ok) => certs.listen(0, '127.0.0.1', ok));
    const certsPort = (certs.address() as { port: number }).port;
    identity = await startService(
      createIdentityService({
        JWT_PRIVATE_KEY: s.jwtPrivateKeyPem,
        GOOGLE_CLIENT_ID,
        GOOGLE_CERTS_URL: `http://127.0.0.1:${certsPort}/oauth2/v1/certs`,
        SUPABASE_JWT_SECRET: '',
        ADMIN_EMAIL: '',
        ADMIN_PASSWORD: '',
      }),
      {
        databaseUrl: requireEnv('DATABASE_URL'),
        bus: s.bus,
        grpcPort: 0,
        logger: createLogger('google-outage-identity', 'silent'),
      },
    );
    const ledger = s.services.find((x) => x.name === 'ledger')!;
    gateway = await listen(
      createGatewayApp({
        logger: createLogger('google-outage-test', 'silent'),
        corsOrigins: [],
        services: [
          { name: 'identity', address: `127.0.0.1:${identity.port}` },
          { name: 'ledger', address: `127.0.0.1:${ledger.port}` },
        ],
      }),
      '127.0.0.1',
      0,
    );
  });
  afterAll(async () => {
    await gateway?.stop();
    await identity?.stop();
    await new Promise((ok) => certs?.close(ok));
    await s?.stop();
  });

  const signIn = async (idToken: unknown) => {
    const res = await fetch(`http://127.0.0.1:${gateway.port}/api/auth/google`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ idToken }),
    });
    return { status: res.status, body: (await res.json()) as { code: string; message: string } };
  };

  it('refuses a token that is not a JWT with 400, without fetching the certificates', async () => {
    for (const idToken of ['not-a-jwt', 'a.b', 'one two three', 'eyJhbGciOiJSUzI1NiJ9.e30.sig.extra']) {
      const res = await signIn(idToken);
      assert.deepEqual(
        [res.status, res.body.code, res.body.message],
        [400, 'INVALID_ARGUMENT', GOOGLE_TOKEN_MALFORMED],
      );
    }
    assert.equal(certRequests, 0);
  });

  it('answers a real token with the documented 503 while the certificates cannot be fetched', async () => {
    const idToken = await s.googleIdToken({ sub: randomUUID(), email: 'g.outage@gmail.com', email_verified: true });
    const res = await signIn(idToken);
    assert.deepEqual(
      [res.status, res.body.code, res.body.message],
      [503, 'UNAVAILABLE', 'Google accounts API unavailable'],
    );
    assert.ok(certRequests > 0, 'the certificates were asked for');
    const doc = (await (await fetch(`http://127.0.0.1:${gateway.port}/api/openapi.json`)).json()) as {
      paths: Record<string, { post: { responses: Record<string, { description: string }> } }>;
    };
    assert.match(doc.paths['/auth/google']!.post.responses['503']!.description, /a real outage/);
  });
});
