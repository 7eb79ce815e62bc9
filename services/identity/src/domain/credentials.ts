// Rules for what a person types when signing up or in. Pure: no I/O.

export const PASSWORD_MIN_LENGTH = 8;
/** Long enough for any passphrase, short enough that hashing cannot be used to burn CPU. */
export const PASSWORD_MAX_LENGTH = 256;
export const EMAIL_MAX_LENGTH = 254;

/** E-mail addresses are compared and stored case-insensitively, without surrounding blanks. */
export function normalizeEmail(raw: string): string {
  return raw.trim().toLowerCase();
}

// One at-sign, a local part without blanks, a domain of dot-separated labels ending in a TLD.
const EMAIL_SHAPE = /^[^\s@]+@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

/** Why an address cannot be used, or undefined when it can. */
export function emailProblem(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw.trim() === '') return 'Email is required';
  const email = normalizeEmail(raw);
  if (email.length > EMAIL_MAX_LENGTH || !EMAIL_SHAPE.test(email) || email.split('@')[0]!.length > 64)
    return 'Please enter a valid email address';
  return undefined;
}

export const PASSWORD_TOO_LONG = `Password must be at most ${PASSWORD_MAX_LENGTH} characters long`;

/**
 * True when a password is longer than any password we accept. Sign-in checks this before it
 * looks anything up or hashes anything: no password that long can be right, and hashing it
 * would only burn CPU.
 */
export const passwordTooLong = (raw: string): boolean =>
  raw.length > PASSWORD_MAX_LENGTH && [...raw].length > PASSWORD_MAX_LENGTH;

/** Why a new password cannot be used, or undefined when it can. Lengths count characters, not bytes. */
export function passwordProblem(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw === '') return 'Password is required';
  if (passwordTooLong(raw)) return PASSWORD_TOO_LONG;
  if ([...raw].length < PASSWORD_MIN_LENGTH) return `Password must be at least ${PASSWORD_MIN_LENGTH} characters long`;
  return undefined;
}

/** The one answer for an unknown e-mail and for a wrong password, so neither can be told apart. */
export const INVALID_LOGIN = 'Invalid email or password';
export const INVALID_ADMIN_LOGIN = 'Invalid admin credentials';
