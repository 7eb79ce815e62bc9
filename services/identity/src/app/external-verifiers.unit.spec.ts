import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { SignJWT } from 'jose';
import type { AppError } from '@flatlay/platform';
import { GoogleVerifier, supabaseEmailConfirmed, SupabaseVerifier } from './external-verifiers.js';

const SECRET = 'supabase-unit-secret-of-enough-length';
const supabaseToken = (claims: Record<string, unknown>) =>
  new SignJWT({ aud: 'authenticated', ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('sb-1')
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(SECRET));

describe('Supabase tokens', () => {
  it('vouch for the address only when Supabase recorded its confirmation or the upstream provider verified it', () => {
    assert.equal(supabaseEmailConfirmed({ email: 'ada@example.com' }), false);
    assert.equal(supabaseEmailConfirmed({ email: 'ada@example.com', email_confirmed_at: '' }), false);
    assert.equal(
      supabaseEmailConfirmed({ email: 'ada@example.com', user_metadata: { email_verified: 'true' } }),
      false,
    );
    assert.equal(
      supabaseEmailConfirmed({ email: 'ada@example.com', email_confirmed_at: '2026-01-01T00:00:00Z' }),
      true,
    );
    assert.equal(supabaseEmailConfirmed({ email: 'ada@example.com', user_metadata: { email_verified: true } }), true);
    assert.equal(supabaseEmailConfirmed({ email: '', email_confirmed_at: '2026-01-01T00:00:00Z' }), false);
  });

  it('an address in a checked token is not verified by its mere presence', async () => {
    const verifier = new SupabaseVerifier(SECRET);
    assert.equal((await verifier.verify(await supabaseToken({ email: 'ada@example.com' }))).emailVerified, false);
    assert.equal(
      (
        await verifier.verify(
          await supabaseToken({ email: 'ada@example.com', email_confirmed_at: '2026-01-01T00:00:00Z' }),
        )
      ).emailVerified,
      true,
    );
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
