import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import {
  decideExternalSignIn,
  SUPABASE_LINK_REFUSED,
  UNVERIFIED_LINK_REFUSED,
  type ExternalClaims,
} from './external-sign-in.js';

const claims: ExternalClaims = { provider: 'google', subject: 'g-1', email: 'ada@example.com', emailVerified: true };
const user = { id: 'u1', email: 'ada@example.com', role: 'user', emailVerified: true } as const;
const unverifiedUser = { ...user, emailVerified: false } as const;
const admin = { id: 'a1', email: 'ada@example.com', role: 'admin', emailVerified: false } as const;

describe('external sign-in linking rules', () => {
  it('a linked identity signs in to its account', () => {
    assert.deepEqual(decideExternalSignIn(claims, user, undefined), { kind: 'sign-in', userId: 'u1', takeover: false });
    assert.deepEqual(decideExternalSignIn({ ...claims, emailVerified: false }, unverifiedUser, undefined), {
      kind: 'sign-in',
      userId: 'u1',
      takeover: false,
    });
  });

  it('links to the account with the same e-mail only when the provider verified it; refuses with what to do otherwise', () => {
    assert.deepEqual(decideExternalSignIn(claims, undefined, user), { kind: 'link', userId: 'u1', takeover: false });
    assert.deepEqual(decideExternalSignIn({ ...claims, emailVerified: false }, undefined, user), {
      kind: 'refuse',
      code: 'CONFLICT',
      message: UNVERIFIED_LINK_REFUSED,
    });
    assert.deepEqual(
      decideExternalSignIn({ ...claims, emailVerified: false }, undefined, unverifiedUser).kind,
      'refuse',
    );
  });

  it('a verified address reaching an account whose address was never verified takes it over', () => {
    assert.deepEqual(decideExternalSignIn(claims, undefined, unverifiedUser), {
      kind: 'link',
      userId: 'u1',
      takeover: true,
    });
    // The linked identity now proves the account's own address (e.g. confirmed since it signed up).
    assert.deepEqual(decideExternalSignIn(claims, unverifiedUser, undefined), {
      kind: 'sign-in',
      userId: 'u1',
      takeover: true,
    });
    // ...but not when it vouches for another address.
    assert.deepEqual(decideExternalSignIn({ ...claims, email: 'other@example.com' }, unverifiedUser, undefined), {
      kind: 'sign-in',
      userId: 'u1',
      takeover: false,
    });
  });

  it('creates an account when no account has the e-mail, verified only when the provider says so', () => {
    assert.deepEqual(decideExternalSignIn({ ...claims, emailVerified: false }, undefined, undefined), {
      kind: 'create',
      emailVerified: false,
    });
    assert.deepEqual(decideExternalSignIn(claims, undefined, undefined), { kind: 'create', emailVerified: true });
  });

  it('a Supabase sign-in never reaches an existing account by its e-mail, even when it claims a verified address', () => {
    // Supabase's user_metadata.email_verified is editable by the signed-in user: whatever a
    // verifier made of it, the decider does not trust it.
    const supabase: ExternalClaims = { provider: 'supabase', subject: 'sb-1', email: user.email, emailVerified: true };
    const refused = { kind: 'refuse', code: 'CONFLICT', message: SUPABASE_LINK_REFUSED };
    for (const owner of [user, unverifiedUser, admin])
      assert.deepEqual(decideExternalSignIn(supabase, undefined, owner), refused, `owner ${owner.id}`);
    // The account already linked to that Supabase user signs in, never taken over.
    assert.deepEqual(decideExternalSignIn(supabase, unverifiedUser, undefined), {
      kind: 'sign-in',
      userId: 'u1',
      takeover: false,
    });
    // A new account: its address does not count as verified.
    assert.deepEqual(decideExternalSignIn(supabase, undefined, undefined), { kind: 'create', emailVerified: false });
  });

  it('never signs in to or links an administrator account', () => {
    assert.deepEqual(decideExternalSignIn(claims, undefined, admin), {
      kind: 'refuse',
      code: 'PERMISSION_DENIED',
      message: 'Administrator accounts sign in with their password',
    });
    assert.equal(decideExternalSignIn(claims, admin, undefined).kind, 'refuse');
  });

  it('refuses a token without subject or (for a new account) without e-mail', () => {
    assert.equal(decideExternalSignIn({ ...claims, subject: '' }, undefined, undefined).kind, 'refuse');
    assert.equal(decideExternalSignIn({ ...claims, email: '' }, undefined, undefined).kind, 'refuse');
  });
});
