import { readAuthToken } from '../lib/storage';
import { errorTextOf } from './error-text';

/** A non-ok answer of /api: its status, its parsed body (when JSON) and the text to show. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown = undefined,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Listener = (status: number) => void;
let onOutage: Listener | null = null;
let onUnauthorized: Listener | null = null;

/**
 * 503 and 504 mean the service is down or did not answer (the gateway keeps them for real
 * outages): the app starts over from /auth. The app shell registers what "start over" does.
 */
export function setOutageHandler(handler: Listener | null): void {
  onOutage = handler;
}

/** A 401 on a call that carried our token: the session is gone, the app signs out locally. */
export function setUnauthorizedHandler(handler: Listener | null): void {
  onUnauthorized = handler;
}

export function reportStatus(status: number, carriedToken: boolean): void {
  if (status === 503 || status === 504) onOutage?.(status);
  else if (status === 401 && carriedToken) onUnauthorized?.(status);
}

/** The stored token as an Authorization header (none when signed out). */
export function authHeaders(): Record<string, string> {
  const token = readAuthToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/** What every JSON call sends besides its headers: the session cookie too. */
export const requestDefaults = { credentials: 'include' } as const satisfies RequestInit;

/**
 * The request half of the rules (the typed client's middleware, ./client): JSON wanted, and the
 * stored bearer token unless the call sends none (`auth: false`). A call that sets Authorization
 * itself keeps it (logout and the Supabase exchange send the token they mean).
 */
export function applyRequestRules(headers: Headers, options: { auth?: boolean } = {}): void {
  if (!headers.has('Accept')) headers.set('Accept', 'application/json');
  if (options.auth === false || headers.has('Authorization')) return;
  for (const [name, value] of Object.entries(authHeaders())) headers.set(name, value);
}

/**
 * The answer half of the rules: a non-ok answer reports its status (503/504 reset
 * the app, 401 on a call that carried our token signs out) and throws an ApiError with the one
 * error text; an ok answer gives its JSON body (undefined when empty) or throws when it is not JSON.
 */
export async function readAnswer(response: Response, carriedToken: boolean): Promise<unknown> {
  const text = await response.text();
  if (!response.ok) {
    reportStatus(response.status, carriedToken);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    throw new ApiError(response.status, errorTextOf(text, response.statusText, response.status), body);
  }
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError(response.status, 'Unexpected server response');
  }
}
