// Which account an external sign-in (Google, Supabase) lands on, and what it may change there. Pure.

export interface ExternalClaims {
  provider: 'google' | 'supabase';
  subject: string;
  /** Normalised (trimmed, lower case); '' when the token carries none. */
  email: string;
  /**
   * Whether the provider vouches that the person controls the address. Counted only from a
   * provider whose word on it can be trusted (see vouchesForAddress).
   */
  emailVerified: boolean;
}

export interface KnownAccount {
  id: string;
  email: string;
  role: 'user' | 'admin';
  /** Whether someone proved control of the account's address (a verified external sign-in). */
  emailVerified: boolean;
}

export type ExternalSignInDecision =
  /** `takeover`: the address is proven now, and the account's unproven credentials must go. */
  | { kind: 'sign-in'; userId: string; takeover: boolean }
  | { kind: 'link'; userId: string; takeover: boolean }
  | { kind: 'create'; emailVerified: boolean }
  | { kind: 'refuse'; code: 'UNAUTHENTICATED' | 'PERMISSION_DENIED' | 'CONFLICT'; message: string };

export const UNVERIFIED_LINK_REFUSED =
  'An account with this email already exists. Confirm your email address with your sign-in provider first, or sign in with your password.';

export const SUPABASE_LINK_REFUSED =
  'An account with this email already exists. Sign in the way you signed up (with your email and password, or with Google).';

/**
 * Whether the claims prove that the person controls the address. Google sets `email_verified`
 * itself. Nothing in a Supabase access token does: its `user_metadata` (email_verified included)
 * is the signed-in user's to edit, and a project may let people in before they confirm their
 * address, so a Supabase sign-in never proves an address, whatever its token says.
 */
export const vouchesForAddress = (claims: ExternalClaims): boolean =>
  claims.provider === 'google' && claims.emailVerified && claims.email !== '';

/**
 * - An identity already linked signs in to its account.
 * - Otherwise an account with the same e-mail is linked, but only when the provider verified
 *   the address (else anyone could claim an account by naming its e-mail), and never an
 *   operator's account (admins sign in with their password only).
 * - A Supabase sign-in never reaches an existing account by its e-mail (its tokens prove no
 *   address, see vouchesForAddress): the address's owner is told to sign in the way they signed
 *   up (409, a business refusal: never 401/403, on which web clients drop the session).
 * - Otherwise a new account is created; its address counts as verified when the provider vouches for it.
 *
 * Whenever a verified address reaches an account whose address was never verified, that is a
 * takeover: whoever set the account's password or linked it before may not be the address's
 * owner (someone can sign up with another person's address), so the caller clears the password,
 * unlinks the other identities and ends every earlier session.
 */
export function decideExternalSignIn(
  claims: ExternalClaims,
  linked: KnownAccount | undefined,
  byEmail: KnownAccount | undefined,
): ExternalSignInDecision {
  if (!claims.subject) return { kind: 'refuse', code: 'UNAUTHENTICATED', message: 'The sign-in token names no user' };
  if (linked) {
    if (linked.role === 'admin') return adminRefusal;
    return { kind: 'sign-in', userId: linked.id, takeover: provesAddressOf(claims, linked) };
  }
  if (!claims.email)
    return { kind: 'refuse', code: 'UNAUTHENTICATED', message: 'The sign-in token carries no email address' };
  if (!byEmail) return { kind: 'create', emailVerified: vouchesForAddress(claims) };
  if (claims.provider === 'supabase') return { kind: 'refuse', code: 'CONFLICT', message: SUPABASE_LINK_REFUSED };
  if (byEmail.role === 'admin') return adminRefusal;
  if (!vouchesForAddress(claims)) return { kind: 'refuse', code: 'CONFLICT', message: UNVERIFIED_LINK_REFUSED };
  return { kind: 'link', userId: byEmail.id, takeover: !byEmail.emailVerified };
}

/** The claims prove the account's own address, which the account had not proven yet. */
export const provesAddressOf = (claims: ExternalClaims, account: KnownAccount): boolean =>
  vouchesForAddress(claims) && !account.emailVerified && claims.email === account.email.toLowerCase();

const adminRefusal: ExternalSignInDecision = {
  kind: 'refuse',
  code: 'PERMISSION_DENIED',
  message: 'Administrator accounts sign in with their password',
};
