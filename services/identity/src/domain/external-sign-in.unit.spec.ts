import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decideExternalSignIn, type ExternalClaims } from './external-sign-in.js';

const claims: ExternalClaims = { provider: 'google', subject: 'g-1', email: 'ada@example.com', emailVerified: true };
const user = { id: 'u1', role: 'user' } as const;
const admin = { id: 'a1', role: 'admin' } as const;

describe('external sign-in linking rules', () => {
  it('a linked identity signs in to its account', () => {
    assert.deepEqual(decideExternalSignIn(claims, user, undefined), { kind: 'sign-in', userId: 'u1' });
  });
  it('links to the account with the same e-mail only when the provider verified it', () => {
    assert.deepEqual(decideExternalSignIn(claims, undefined, user), { kind: 'link', userId: 'u1' });
    const refused = decideExternalSignIn({ ...claims, emailVerified: false }, undefined, user);
    assert.equal(refused.kind, 'refuse');
  });
  it('creates an account when no account has the e-mail', () => {
    assert.deepEqual(decideExternalSignIn({ ...claims, emailVerified: false }, undefined, undefined), { kind: 'create' });
  });
  it('never signs in to or links an administrator account', () => {
    assert.deepEqual(decideExternalSignIn(claims, undefined, admin), { kind: 'refuse', code: 'PERMISSION_DENIED', message: 'Administrator accounts sign in with their password' });
    assert.equal(decideExternalSignIn(claims, admin, undefined).kind, 'refuse');
  });
  it('refuses a token without subject or (for a new account) without e-mail', () => {
    assert.equal(decideExternalSignIn({ ...claims, subject: '' }, undefined, undefined).kind, 'refuse');
    assert.equal(decideExternalSignIn({ ...claims, email: '' }, undefined, undefined).kind, 'refuse');
  });
});
