// A Google sign-in creates the account when none exists, and its answer says nothing more than
// the account's creation time. An account created moments ago by this very sign-in is a sign-up
// for the marketing pixels (CompleteRegistration), as an e-mail sign-up is.

/** How recent the account's creation must be for this sign-in to have made it (allows for clock skew). */
export const NEW_ACCOUNT_WINDOW_MS = 5 * 60_000;
const TRACKED_KEY = 'registration_tracked';

/** Whether a Google sign-in answered with this account just created it (and it was not counted yet). */
export function isGoogleSignUp(user: { id: string; createdAt?: string | null }, now: number): boolean {
  const created = user.createdAt ? Date.parse(user.createdAt) : Number.NaN;
  if (!Number.isFinite(created) || Math.abs(now - created) > NEW_ACCOUNT_WINDOW_MS) return false;
  try {
    if (localStorage.getItem(TRACKED_KEY) === user.id) return false;
    localStorage.setItem(TRACKED_KEY, user.id);
  } catch {
    // storage blocked: count it (a second sign-in within minutes is rare)
  }
  return true;
}
