import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { SignJWT } from 'jose';
import type { AppError } from '@flatlay/platform';
import { GoogleVerifier, SupabaseVerifier } from './external-verifiers.js';

const SECRET = 'supabase-unit-secret-of-enough-length';
const supabaseToken = (claims: Record<string, unknown>) =>
  new SignJWT({ aud: 'authenticated', ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('sb-1')
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(SECRET));

describe('Supabase tokens', () => {
  it("never vouch for the address: user_metadata.email_verified is the user's to edit", async () => {
    const verifier = new SupabaseVerifier(SECRET);
    for (const claims of [
      { email: 'ada@example.com' },
      { email: 'ada@example.com', user_metadata: { email_verified: true } },
      { email: 'ada@example.com', email_confirmed_at: '2026-01-01T00:00:00Z' },
      { email: 'ada@example.com', role: 'authenticated', app_metadata: { provider: 'email', providers: ['email'] } },
    ]) {
      const profile = await verifier.verify(await supabaseToken(claims));
      assert.deepEqual(
        [profile.provider, profile.email, profile.emailVerified],
        ['supabase', 'ada@example.com', false],
      );
    }
  });
});

describe('unconfigured providers', () => {
  it('answer NOT_CONFIGURED with a message, never UNAVAILABLE (clients drop the session on 503)', async () => {
    const refused = (what: string) => (e: AppError) =>
      e.code === 'NOT_CONFIGURED' &&
      e.message === `${what} sign-in is not configured on this server. Please sign in with your email and password.`;
    await assert.rejects(new GoogleVerifier(undefined).verify('any'), refused('Google'));
    await assert.rejects(new SupabaseVerifier(undefined).verify('any'), refused('Supabase'));
  });
});
