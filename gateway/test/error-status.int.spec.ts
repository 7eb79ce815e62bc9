// The status codes the web clients act on, over real gRPC: "not configured" is 501 with a message
// (never 503, which makes the user app wipe its storage), 503 is a real outage, and on admin
// routes only the gateway's own checks answer 401/403 (the admin app drops its token on those).
// The identity service here is a stand-in that answers exactly the errors under test.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, it } from 'vitest';
import express from 'express';
import { identity } from '@flatlay/proto';
import { AppError, call, createLogger, GrpcServer, inProcessPublicKeys, unary } from '@flatlay/platform';
import { createGatewayApp, listen } from '../src/index.js';
import { serviceClients } from '../src/clients.js';
import { callerMetadata, callerOf, createAuthenticator } from '../src/http/auth.js';
import { apiNotFound, errorMapper, type errorBody } from '../src/http/errors.js';

const logger = createLogger('error-status-test', 'silent');
const TOKENS: Record<string, string> = { 'admin-token': 'admin', 'user-token': 'user' };

/** The JSON body of an /api error answer. */
type ErrorBody = ReturnType<typeof errorBody>;

/** The parts of the served OpenAPI document that the tests read. */
interface ServedOpenApi {
  info: { description: string };
  paths: {
    '/auth/google': { post: { responses: { '501': { description: string }; '503': { description: string } } } };
  };
}

/** An identity service that knows two tokens, has no sign-in provider set up, and refuses profile reads on a business rule. */
async function standInIdentity() {
  const implementation = {
    verifyToken: unary(logger, async (req: identity.VerifyTokenRequest) => {
      const role = TOKENS[req.token];
      if (!role) throw new AppError('UNAUTHENTICATED', 'Not authenticated: the token is malformed');
      return { userId: `${role}-id`, role, tokenId: `${role}-jti`, expiresAt: undefined };
    }),
    loginWithGoogle: unary(logger, async () => {
      throw new AppError('NOT_CONFIGURED', 'Google sign-in is not configured on this server');
    }),
    loginWithSupabase: unary(logger, async () => {
      throw new AppError('NOT_CONFIGURED', 'Supabase sign-in is not configured on this server');
    }),
    getProfile: unary(logger, async () => {
      throw new AppError('PERMISSION_DENIED', 'This account is managed by its organisation and cannot be changed here');
    }),
  };
  const server = new GrpcServer(
    [{ name: 'flatlay.identity.v1.IdentityService', definition: identity.IdentityServiceService, implementation }],
    { service: 'identity', publicKeys: inProcessPublicKeys() },
  );
  const port = await server.listen('127.0.0.1', 0);
  server.setServing(true);
  return { address: `127.0.0.1:${port}`, stop: () => server.shutdown(1_000) };
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((ok) => probe.listen(0, '127.0.0.1', ok));
  const { port } = probe.address() as { port: number };
  await new Promise((ok) => probe.close(ok));
  return port;
}

describe('status codes the web clients depend on', { timeout: 120_000 }, () => {
  const stops: Array<() => Promise<unknown>> = [];
  let standIn: Awaited<ReturnType<typeof standInIdentity>>;

  beforeAll(async () => {
    standIn = await standInIdentity();
    stops.push(standIn.stop);
  });
  afterAll(async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  });

  const serve = async (app: express.Express) => {
    const http = await listen(app, '127.0.0.1', 0);
    stops.push(() => http.stop());
    return async <B = ErrorBody>(method: string, path: string, options: { token?: string; json?: unknown } = {}) => {
      const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
      if (options.json !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`http://127.0.0.1:${http.port}/api${path}`, {
        method,
        headers,
        body: options.json === undefined ? undefined : JSON.stringify(options.json),
      });
      return { status: res.status, body: (await res.json()) as B };
    };
  };

  it('a sign-in provider that is not configured answers 501 with a message saying so', async () => {
    const request = await serve(
      createGatewayApp({ logger, corsOrigins: [], services: [{ name: 'identity', address: standIn.address }] }),
    );
    const google = await request('POST', '/auth/google', { json: { idToken: 'a.b.c' } });
    assert.deepEqual(
      [google.status, google.body.code, google.body.message, google.body.detail],
      [
        501,
        'NOT_CONFIGURED',
        'Google sign-in is not configured on this server',
        'Google sign-in is not configured on this server',
      ],
    );
    const supabase = await request('POST', '/auth/supabase', { token: 'a.b.c', json: {} });
    assert.deepEqual(
      [supabase.status, supabase.body.message],
      [501, 'Supabase sign-in is not configured on this server'],
    );
  });

  it('a service that does not answer is an outage: 503', async () => {
    const request = await serve(
      createGatewayApp({
        logger,
        corsOrigins: [],
        services: [{ name: 'identity', address: `127.0.0.1:${await closedPort()}` }],
      }),
    );
    const res = await request('POST', '/auth/login', {
      json: { email: 'someone@example.com', password: 'long enough' },
    });
    assert.deepEqual([res.status, res.body.code], [503, 'UNAVAILABLE']);
    assert.equal(typeof res.body.message, 'string');
  });

  it("past the admin guard a downstream refusal is 409 with its message; the guard's own refusals stay 401/403", async () => {
    // An admin route composed as the gateway composes its own: admin guard, a gRPC call, the error mapping.
    const clients = serviceClients([{ name: 'identity', address: standIn.address }]);
    stops.push(async () => clients.close());
    const auth = createAuthenticator(clients);
    const api = express.Router();
    api.use('/admin', auth.requireAdmin);
    api.get('/admin/profile', async (req, res) => {
      const c = clients.identity();
      res.json(await call(c, c.getProfile, { userId: callerOf(req).userId }, { metadata: callerMetadata(req) }));
    });
    // A user route keeps the downstream status: the rule is about admin routes.
    api.get('/profile', auth.requireUser, async (req, res) => {
      const c = clients.identity();
      res.json(await call(c, c.getProfile, { userId: callerOf(req).userId }, { metadata: callerMetadata(req) }));
    });
    api.use(apiNotFound);
    const app = express();
    app.use('/api', api);
    app.use(errorMapper(logger));
    const request = await serve(app);

    const refused = await request('GET', '/admin/profile', { token: 'admin-token' });
    assert.deepEqual(
      [refused.status, refused.body.message],
      [409, 'This account is managed by its organisation and cannot be changed here'],
    );
    const user = await request('GET', '/admin/profile', { token: 'user-token' });
    assert.deepEqual([user.status, user.body.message], [403, 'Admin authentication required']);
    const none = await request('GET', '/admin/profile');
    assert.deepEqual([none.status, none.body.message], [401, 'Not authenticated: Authentication required']);
    const bad = await request('GET', '/admin/profile', { token: 'forged' });
    assert.deepEqual([bad.status, bad.body.message], [401, 'Not authenticated: the token is malformed']);
    assert.equal((await request('GET', '/profile', { token: 'user-token' })).status, 403);
  });

  it('the served OpenAPI document states both rules', async () => {
    const request = await serve(createGatewayApp({ logger, corsOrigins: [], services: [] }));
    const doc = (await request<ServedOpenApi>('GET', '/openapi.json')).body;
    assert.match(doc.info.description, /501 \(NOT_CONFIGURED\)/);
    assert.match(
      doc.info.description,
      /On \/admin\/\* \(except \/admin\/login\) and \/settings\/\*, 401 and 403 mean only "admin authentication required"/,
    );
    assert.match(doc.paths['/auth/google'].post.responses['501'].description, /not configured/);
    // 503 is documented only for Google's real outage (its certificates cannot be fetched).
    assert.doesNotMatch(doc.paths['/auth/google'].post.responses['503'].description, /not configured/i);
  });
});
