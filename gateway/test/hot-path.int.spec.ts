// The hot path's shortcuts (ADR 0510) answer exactly as the machinery they replace: Express's
// res.json, helmet, the cors package, and the /api router's 404 for a path no operation matches.
import assert from 'node:assert/strict';
import cors from 'cors';
import express, { type Express, type RequestHandler } from 'express';
import helmet from 'helmet';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createLogger } from '@flatlay/platform';
import { apiCors } from '../src/http/cors.js';
import { fastJson } from '../src/http/json.js';
import { staticHeaders } from '../src/http/static-headers.js';
import { createGatewayApp, listen } from '../src/index.js';
import { contentSecurityPolicy } from '../src/web-settings.js';

type Served = Awaited<ReturnType<typeof listen>>;
const servers: Served[] = [];
async function serve(app: Express): Promise<string> {
  const http = await listen(app, '127.0.0.1', 0);
  servers.push(http);
  return `http://127.0.0.1:${http.port}`;
}
afterAll(async () => {
  for (const s of servers) await s.stop();
});

/** Status, headers (but the date) and body of an answer. */
async function answer(base: string, path: string, init: RequestInit = {}) {
  const res = await fetch(`${base}${path}`, init);
  const headers = Object.fromEntries([...res.headers].filter(([name]) => name !== 'date'));
  return { status: res.status, headers, body: await res.text() };
}

/** Two apps alike but for `shortcut`, one with Express's own way (`original`). */
async function pair(build: (app: Express, variant: 'shortcut' | 'original') => void): Promise<[string, string]> {
  const make = (variant: 'shortcut' | 'original') => {
    const app = express();
    app.disable('x-powered-by');
    app.set('etag', false);
    build(app, variant);
    return serve(app);
  };
  return [await make('shortcut'), await make('original')];
}

describe('the hot path answers as what it replaces', { timeout: 60_000 }, () => {
  it("res.json: the same status, headers and bytes as Express's", async () => {
    const [fast, original] = await pair((app, variant) => {
      if (variant === 'shortcut') fastJson(app);
      app.get('/plain', (_req, res) => void res.json({ balance: 200, name: 'Zoë <&>' }));
      app.get('/status', (_req, res) => void res.status(418).json([1, 'two', null]));
      app.get('/empty', (_req, res) => void res.status(204).json({ gone: true }));
      app.get('/typed', (_req, res) => void res.type('application/problem+json').json({ a: 1 }));
      app.get('/nothing', (_req, res) => void res.json(undefined));
      app.get('/string', (_req, res) => void res.json('text'));
    });
    const cases: Array<[string, RequestInit]> = [
      ['/plain', {}],
      ['/plain', { method: 'HEAD' }],
      ['/plain', { headers: { 'if-none-match': '*' } }],
      ['/plain', { headers: { 'if-modified-since': new Date().toUTCString() } }],
      ['/status', {}],
      ['/empty', {}],
      ['/typed', {}],
      ['/nothing', {}],
      ['/string', {}],
    ];
    for (const [path, init] of cases)
      assert.deepEqual(
        await answer(fast, path, init),
        await answer(original, path, init),
        `${path} ${init.method ?? ''}`,
      );
  });

  it("helmet's headers, worked out once, are the headers helmet sets", async () => {
    const directives = contentSecurityPolicy({});
    const [once, each] = await pair((app, variant) => {
      const middleware = helmet({ contentSecurityPolicy: { directives } });
      app.use(variant === 'shortcut' ? staticHeaders(middleware) : middleware);
      app.get('/', (_req, res) => void res.send('ok'));
    });
    const a = await answer(once, '/');
    assert.deepEqual(a, await answer(each, '/'));
    assert.equal(a.headers['x-content-type-options'], 'nosniff');
  });

  it('a middleware that reads the request is refused at start', () => {
    const readsRequest: RequestHandler = (req, res, next) => {
      res.setHeader('x-path', req.path);
      next();
    };
    assert.throws(() => staticHeaders(readsRequest), /read the request/);
  });

  it('CORS: the same headers as the cors package, with and without an Origin, and for preflights', async () => {
    const origins = ['https://shop.example', 'http://localhost:8080'];
    const [direct, pkg] = await pair((app, variant) => {
      app.use(variant === 'shortcut' ? apiCors(origins) : cors({ origin: origins, credentials: true }));
      app.all('/{*path}', (_req, res) => void res.json({ ok: true }));
    });
    const cases: RequestInit[] = [
      {},
      { headers: { origin: 'https://shop.example' } },
      { headers: { origin: 'https://evil.example' } },
      { method: 'POST', headers: { origin: 'http://localhost:8080', 'content-type': 'application/json' }, body: '{}' },
      { method: 'OPTIONS', headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' } },
      { method: 'OPTIONS' },
    ];
    for (const init of cases)
      assert.deepEqual(await answer(direct, '/x', init), await answer(pkg, '/x', init), JSON.stringify(init));
  });

  describe('an /api path that no operation can match', () => {
    let base: string;
    beforeAll(async () => {
      const app = createGatewayApp({
        logger: createLogger('hot-path-test', 'silent'),
        corsOrigins: ['https://shop.example'],
        services: [],
        webDir: undefined,
      });
      base = await serve(app);
    });
    const detail = async (path: string, init: RequestInit = {}) => {
      const res = await fetch(`${base}${path}`, init);
      return { status: res.status, body: (await res.json()) as { detail: string; code: string }, headers: res.headers };
    };

    it('is a 404 naming the path below /api, with the CORS headers of the /api router', async () => {
      const res = await detail('/api/no-such-thing?x=1', { headers: { origin: 'https://shop.example' } });
      assert.equal(res.status, 404);
      assert.deepEqual(res.body, {
        detail: 'No API route for GET /no-such-thing',
        message: 'No API route for GET /no-such-thing',
        code: 'NOT_FOUND',
      });
      assert.equal(res.headers.get('access-control-allow-origin'), 'https://shop.example');
      assert.equal(res.headers.get('vary'), 'Origin');
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      assert.match(res.headers.get('traceparent') ?? '', /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
      assert.equal((await detail('/API/No-Such/x')).body.detail, 'No API route for GET /No-Such/x');
      assert.equal((await detail('/api')).body.detail, 'No API route for GET /');
      assert.equal((await detail('/api/')).body.detail, 'No API route for GET /');
      assert.equal((await detail('/api//tokens/balance')).body.detail, 'No API route for GET //tokens/balance');
      assert.equal((await detail('/api/tok%65ns/balance', { method: 'DELETE' })).status, 404);
    });

    it('while a known area goes on to its operations, in any case, and the admin areas to their guard', async () => {
      assert.equal(
        (await detail('/api/tokens/no-such-thing')).body.detail,
        'No API route for GET /tokens/no-such-thing',
      );
      assert.equal((await detail('/api/TOKENS/balance')).status, 401);
      assert.equal((await detail('/api/tokens/balance', { method: 'PUT' })).body.code, 'METHOD_NOT_ALLOWED');
      assert.equal((await detail('/api/admin/no-such-thing')).status, 401);
      assert.equal((await detail('/api/settings/no-such-thing')).status, 401);
      const preflight = await fetch(`${base}/api/no-such-thing`, {
        method: 'OPTIONS',
        headers: { origin: 'https://shop.example', 'access-control-request-method': 'GET' },
      });
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers.get('access-control-allow-origin'), 'https://shop.example');
    });

    it('/apix and other paths are not /api', async () => {
      const res = await fetch(`${base}/apix/no-such-thing`);
      assert.equal(res.status, 404);
      assert.match(await res.text(), /web app is not built/);
    });
  });
});
