// A Google verifier pointed at a certificate address that refuses at once (loopback port 9).
import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { GOOGLE_TOKEN_MALFORMED } from '@flatlay/platform';
import { GoogleVerifier } from '../src/adapters/external-verifiers.js';

describe('Google sign-in', () => {
  it("refuses a token that is not a JWT as the caller's mistake, before fetching any certificate", async () => {
    // Port 9 (discard) on loopback: a fetch there fails at once, which would answer UNAVAILABLE.
    const google = new GoogleVerifier('client-id.apps.googleusercontent.com', 'http://127.0.0.1:9/certs');
    for (const token of ['not-a-jwt', 'a.b', 'a.b.c.d', 'one two three'])
      await assert.rejects(google.verify(token), { code: 'INVALID_ARGUMENT', message: GOOGLE_TOKEN_MALFORMED }, token);
  });

  it('answers an outage of the certificates as UNAVAILABLE for a token that is shaped right', async () => {
    const google = new GoogleVerifier('client-id.apps.googleusercontent.com', 'http://127.0.0.1:9/certs');
    await assert.rejects(google.verify('eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln'), { code: 'UNAVAILABLE' });
  });
});
