import assert from 'node:assert/strict';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { describe, it } from 'vitest';
import { SignJWT } from 'jose';
import { AccessTokens } from './access-tokens.js';
import { signingKeyFromPem } from './signing-key.js';

describe('access tokens', () => {
  const pem = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();
  const key = signingKeyFromPem(pem);
  const tokens = new AccessTokens(key, {
    issuer: 'flatlay',
    audience: 'flatlay-api',
    ttlSeconds: 600,
    adminTtlSeconds: 60,
  });
  const now = new Date('2026-03-01T10:00:00.250Z');
  const userId = randomUUID();

  it("carry the user's sessions-valid-after instant to the millisecond (iat has whole seconds only)", async () => {
    const cut = new Date('2026-03-01T10:00:00.249Z');
    const issued = await tokens.issue(userId, 'user', cut, now);
    const claims = await tokens.verify(issued.token, now);
    assert.equal(claims.sessionsValidAfter, cut.getTime());
    const never = await tokens.verify((await tokens.issue(userId, 'user', null, now)).token, now);
    assert.equal(never.sessionsValidAfter, 0);
  });

  it('read a token from before session cuts (no claim) as issued under 0, and refuse a malformed claim', async () => {
    const sign = (claims: Record<string, unknown>) =>
      new SignJWT({ role: 'user', ...claims })
        .setProtectedHeader({ alg: key.alg, kid: key.kid })
        .setIssuer('flatlay')
        .setAudience('flatlay-api')
        .setSubject(userId)
        .setJti(randomUUID())
        .setIssuedAt(Math.floor(now.getTime() / 1000))
        .setExpirationTime('5m')
        .sign(key.privateKey);
    assert.equal((await tokens.verify(await sign({}), now)).sessionsValidAfter, 0);
    await assert.rejects(tokens.verify(await sign({ sva: 'later' }), now), /Not authenticated: the token is malformed/);
  });
});
