// The /api contract through a typed client (openapi-fetch over the types generated from the
// document), so a renamed field or path breaks the type check; and what the router answers
// from the declarations alone: 405 with Allow, 415, 413 before the body is read, and 400
// messages a person can act on.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, it } from 'vitest';
import createClient from 'openapi-fetch';
import type { paths } from '../src/api/openapi-types.js';
import { type ErrorBody, startStack, type Stack } from './support/stack.js';

describe('the /api contract', { timeout: 240_000 }, () => {
  let s: Stack;
  let api: ReturnType<typeof createClient<paths>>;

  beforeAll(async () => {
    s = await startStack('api-schema-test');
    api = createClient<paths>({ baseUrl: `${s.base}/api` });
  });
  afterAll(async () => s?.stop());

  it('signs up, signs in, reads the profile and balance, and signs out through the typed client', async () => {
    const email = `typed.${randomUUID().slice(0, 8)}@example.com`;
    const password = 'correct horse battery';
    const registered = await api.POST('/auth/register', { body: { email, password } });
    assert.equal(registered.response.status, 201);
    assert.equal(registered.data?.user.tokenBalance, 200);
    const login = await api.POST('/auth/login', { body: { email, password } });
    const token = login.data?.access_token ?? '';
    assert.equal(login.data?.token_type, 'bearer');
    const headers = { authorization: `Bearer ${token}` };
    const me = await api.GET('/auth/me', { headers });
    assert.deepEqual([me.data?.email, me.data?.role], [email, 'user']);
    const history = await api.GET('/tokens/', { params: { query: { limit: 5 } }, headers });
    assert.deepEqual(
      history.data?.transactions.map((t) => t.amount),
      [200],
    );
    const out = await api.POST('/auth/logout', { headers });
    assert.equal(out.data?.message, 'Logged out');
    const after = await api.GET('/tokens/balance', { headers });
    assert.deepEqual([after.response.status, after.error?.code], [401, 'UNAUTHENTICATED']);
  });

  it('refuses what the document refuses, with a message naming the rule', async () => {
    const short = await api.POST('/auth/register', {
      body: { email: `s.${randomUUID().slice(0, 6)}@example.com`, password: 'short' },
    });
    assert.deepEqual(
      [short.response.status, short.error?.message],
      [400, 'Password must be at least 8 characters long'],
    );
    const long = await api.POST('/admin/login', {
      body: { username: s.admin.email, password: 'x'.repeat(257) },
      bodySerializer: (b) => new URLSearchParams(b as Record<string, string>).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.deepEqual(
      [long.response.status, long.error?.message],
      [400, 'Password must be at most 256 characters long'],
    );
    const empty = await api.POST('/auth/google', { body: { idToken: '' } });
    assert.deepEqual([empty.response.status, empty.error?.message], [400, 'idToken is required']);
    const limit = await s.request('GET', '/tokens/?limit=abc', { token: (await s.newUser('limit')).token });
    assert.deepEqual([limit.status, limit.body.message], [400, 'limit must be an integer between 1 and 100']);
  });

  it('answers a method a path does not declare with 405 and Allow', async () => {
    for (const [method, path, allow] of [
      ['TRACE', '/auth/me', 'GET, HEAD'],
      ['DELETE', '/auth/login', 'POST'],
      ['PUT', '/tokens/', 'GET, HEAD'],
      ['POST', '/openapi.json', 'GET, HEAD'],
    ] as const) {
      const res = method === 'TRACE' ? await raw(s.base, method, `/api${path}`) : await s.request(method, path);
      assert.equal(res.status, 405, `${method} ${path}`);
      assert.equal(res.headers.get('allow'), allow, `${method} ${path}`);
      assert.equal(res.body.code, 'METHOD_NOT_ALLOWED');
    }
  });

  it('answers a body of another type 415, naming the type to send', async () => {
    const res = await s.request('POST', '/admin/login', { json: { username: 'a@example.com', password: 'x' } });
    assert.deepEqual(
      [res.status, res.body.message],
      [415, 'Send the body form-encoded with Content-Type: application/x-www-form-urlencoded (got application/json)'],
    );
  });

  it('answers an oversized body 413 from its Content-Length, before reading it, and a chunked one once it passes the limit', async () => {
    // Only the headers are sent: the answer comes without the body ever being written.
    const declared = await raw(s.base, 'POST', '/api/auth/login', {
      'content-type': 'application/json',
      'content-length': '10000000',
    });
    assert.deepEqual([declared.status, declared.body.code], [413, 'PAYLOAD_TOO_LARGE']);
    const chunked = await raw(
      s.base,
      'POST',
      '/api/auth/login',
      { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(100_000) }),
    );
    assert.deepEqual([chunked.status, chunked.body.code], [413, 'PAYLOAD_TOO_LARGE']);
  });

  it('serves the document it is built from', async () => {
    const doc = await api.GET('/openapi.json');
    assert.equal(doc.data?.openapi, '3.1.0');
  });
});

/** A request with exactly these headers (fetch refuses TRACE and sets Content-Length itself). */
function raw(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; headers: Headers; body: ErrorBody }> {
  return new Promise((ok, fail) => {
    const req = httpRequest(`${base}${path}`, { method, headers }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () =>
        ok({
          status: res.statusCode ?? 0,
          headers: new Headers(res.headers as Record<string, string>),
          body: JSON.parse(text),
        }),
      );
    });
    req.on('error', fail);
    if (body) req.end(body);
    else if (headers['content-length']) req.flushHeaders();
    else req.end();
  });
}
