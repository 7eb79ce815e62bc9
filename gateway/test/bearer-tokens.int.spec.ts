// Bearer tokens through the gateway: only the Authorization header counts (a token in the URL or
// the body is ignored), and the classic JWT attacks are refused with 401.
import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { SignJWT } from 'jose';
import { startStack, type Stack, type TokenBody } from './support/stack.js';

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('bearer tokens', { timeout: 240_000 }, () => {
  let s: Stack;
  let user: { id: string; token: string };
  let adminToken: string;

  beforeAll(async () => {
    s = await startStack('bearer-test');
    user = await s.newUser('bearer');
    adminToken = (
      await s.request<TokenBody>('POST', '/admin/login', {
        form: { username: s.admin.email, password: s.admin.password },
      })
    ).body.access_token;
  });
  afterAll(async () => s?.stop());

  /** Claims like ours, for the given subject and role, valid now. */
  const claims = (sub: string, role = 'user') => {
    const now = Math.floor(Date.now() / 1000);
    return { sub, role, iss: 'flatlay', aud: 'flatlay-api', iat: now - 10, exp: now + 600, jti: randomUUID() };
  };

  describe('where the token is read from', () => {
    it('the Authorization header works', async () => {
      assert.equal((await s.request('GET', '/auth/me', { token: user.token })).status, 200);
    });

    it('a valid token in ?access_token= is ignored: 401', async () => {
      const res = await fetch(`${s.base}/api/auth/me?access_token=${encodeURIComponent(user.token)}`);
      const body = (await res.json()) as { message: string };
      assert.deepEqual([res.status, body.message], [401, 'Not authenticated: Authentication required']);
    });

    it('a valid admin token in a JSON or form body is ignored: 401, not past the admin guard', async () => {
      const json = await s.request('POST', '/admin/no-such-route', { json: { access_token: adminToken } });
      assert.deepEqual([json.status, json.body.message], [401, 'Not authenticated: Authentication required']);
      const form = await s.request('POST', '/settings/no-such-route', { form: { access_token: adminToken } });
      assert.deepEqual([form.status, form.body.message], [401, 'Not authenticated: Authentication required']);
      // With the header the same request passes the guard (404: no route serves this path).
      assert.equal((await s.request('POST', '/admin/no-such-route', { token: adminToken, json: {} })).status, 404);
    });

    it('a token in the URL beside the header does not change who the caller is', async () => {
      const other = await s.newUser('bearer-other');
      const res = await fetch(`${s.base}/api/auth/me?access_token=${encodeURIComponent(other.token)}`, {
        headers: { authorization: `Bearer ${user.token}` },
      });
      assert.equal(res.status, 200);
      assert.equal(((await res.json()) as { id: string }).id, user.id);
    });
  });

  describe('forged tokens', () => {
    it('`alg: none` (no signature) is refused: 401', async () => {
      for (const role of ['user', 'admin']) {
        const unsigned = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(claims(user.id, role))}.`;
        assert.equal((await s.request('GET', '/auth/me', { token: unsigned })).status, 401, role);
        assert.equal((await s.request('GET', '/admin/users', { token: unsigned })).status, 401, role);
      }
    });

    it("HS256 signed with the server's public key as the HMAC secret is refused: 401", async () => {
      const publicKey = createPublicKey(createPrivateKey(s.jwtPrivateKeyPem));
      const secrets = [
        publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        publicKey.export({ type: 'spki', format: 'der' }),
        JSON.stringify(publicKey.export({ format: 'jwk' })),
      ];
      for (const secret of secrets) {
        const forged = await new SignJWT(claims(user.id, 'admin'))
          .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
          .sign(new Uint8Array(Buffer.from(secret)));
        const me = await s.request('GET', '/auth/me', { token: forged });
        assert.equal(me.status, 401);
        assert.match(me.body.message, /^Not authenticated/);
        assert.equal((await s.request('GET', '/admin/users', { token: forged })).status, 401);
      }
    });

    it('a wrong issuer or a wrong audience, signed with the real key, is refused: 401', async () => {
      const key = createPrivateKey(s.jwtPrivateKeyPem);
      for (const [name, override] of [
        ['issuer', { iss: 'someone-else' }],
        ['audience', { aud: 'another-api' }],
        ['no audience', { aud: undefined }],
      ] as const) {
        const forged = await new SignJWT({ ...claims(user.id), ...override })
          .setProtectedHeader({ alg: 'ES256' })
          .sign(key);
        const res = await s.request('GET', '/auth/me', { token: forged });
        assert.equal(res.status, 401, name);
        assert.match(res.body.message, /^Not authenticated/, name);
      }
      // The same claims with the right issuer and audience verify, so the refusals above are about those claims.
      const genuine = await new SignJWT(claims(user.id)).setProtectedHeader({ alg: 'ES256' }).sign(key);
      assert.equal((await s.request('GET', '/auth/me', { token: genuine })).status, 200);
    });
  });
});
