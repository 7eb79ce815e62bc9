// Which account an external sign-in (Google, Supabase) lands on. Pure.

export interface ExternalClaims {
  provider: 'google' | 'supabase';
  subject: string;
  email: string;
  /** Whether the provider vouches that the person controls the address. */
  emailVerified: boolean;
}

export interface KnownAccount {
  id: string;
  role: 'user' | 'admin';
}

export type ExternalSignInDecision =
  | { kind: 'sign-in'; userId: string }
  | { kind: 'link'; userId: string }
  | { kind: 'create' }
  | { kind: 'refuse'; code: 'UNAUTHENTICATED' | 'PERMISSION_DENIED' | 'CONFLICT'; message: string };

/**
 * - An identity already linked signs in to its account.
 * - Otherwise an account with the same e-mail is linked, but only when the provider verified
 *   the address (else anyone could claim an account by naming its e-mail), and never an
 *   operator's account (admins sign in with their password only).
 * - Otherwise a new account is created.
 */
export function decideExternalSignIn(claims: ExternalClaims, linked: KnownAccount | undefined, byEmail: KnownAccount | undefined): ExternalSignInDecision {
  if (!claims.subject) return { kind: 'refuse', code: 'UNAUTHENTICATED', message: 'The sign-in token names no user' };
  if (linked) return linked.role === 'admin' ? adminRefusal : { kind: 'sign-in', userId: linked.id };
  if (!claims.email) return { kind: 'refuse', code: 'UNAUTHENTICATED', message: 'The sign-in token carries no email address' };
  if (!byEmail) return { kind: 'create' };
  if (byEmail.role === 'admin') return adminRefusal;
  if (!claims.emailVerified) return { kind: 'refuse', code: 'CONFLICT', message: 'An account with this email already exists. Sign in with your password.' };
  return { kind: 'link', userId: byEmail.id };
}

const adminRefusal: ExternalSignInDecision = { kind: 'refuse', code: 'PERMISSION_DENIED', message: 'Administrator accounts sign in with their password' };
