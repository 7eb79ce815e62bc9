import { ApiError } from '../api/http';
import type { UserProfile } from '../api/schema';

export const AUTH_ATTEMPTS = 3;
export const AUTH_RETRY_STEP_MS = 500;
/** A profile fetched less than this long ago is not fetched again. */
export const PROFILE_FRESH_MS = 5 * 60 * 1000;

export interface SessionDeps {
  readToken: () => string | null;
  removeToken: () => void;
  fetchProfile: (signal?: AbortSignal) => Promise<UserProfile>;
  sleep: (ms: number) => Promise<void>;
  /** Set when the page that asked has gone (the provider unmounted): no further try is made. */
  signal?: AbortSignal;
}

/** An answer that says the session is over: retrying would not help. */
export function isSessionGone(error: unknown): boolean {
  if (error instanceof ApiError && error.status === 401) return true;
  const message = error instanceof Error ? error.message : String(error);
  return /expired|not authenticated/i.test(message);
}

/**
 * Restores the session from the stored token: up to 3 tries, waiting 500 ms times the attempt
 * between them (the gateway may be starting). An expired or refused token is removed and not
 * retried. Null means signed out. Stops at once when `signal` aborts: a provider that unmounted
 * while waiting would otherwise go on asking for a profile nobody reads (in the web tests, from
 * a later test's fake server: a settings test saw three GET /api/auth/me it never made).
 */
export async function initialiseSession(deps: SessionDeps): Promise<UserProfile | null> {
  if (!deps.readToken()) return null;
  for (let attempt = 1; attempt <= AUTH_ATTEMPTS; attempt++) {
    if (deps.signal?.aborted) return null;
    try {
      return await deps.fetchProfile(deps.signal);
    } catch (error) {
      if (deps.signal?.aborted) return null;
      if (isSessionGone(error)) {
        deps.removeToken();
        return null;
      }
      if (attempt < AUTH_ATTEMPTS) await deps.sleep(AUTH_RETRY_STEP_MS * attempt);
    }
  }
  return null;
}

export function isProfileFresh(lastFetched: number | null, now: number): boolean {
  return lastFetched !== null && now - lastFetched < PROFILE_FRESH_MS;
}

/** First plus last name, else first name, else the part of the e-mail before the at-sign. */
export function displayNameOf(p: Pick<UserProfile, 'firstName' | 'lastName' | 'email'>): string {
  if (p.firstName && p.lastName) return `${p.firstName} ${p.lastName}`;
  if (p.firstName) return p.firstName;
  return p.email.split('@')[0] ?? p.email;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
