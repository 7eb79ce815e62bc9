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

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  json?: unknown;
  /** Send the stored token (default); sign-in calls send none. */
  auth?: boolean;
  /** A token to send instead of the stored one (the Supabase exchange). */
  bearer?: string;
  signal?: AbortSignal;
}

export function authHeaders(bearer?: string | null): Record<string, string> {
  const token = bearer ?? readAuthToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/**
 * Every /api call but uploads goes through here: bearer token, credentials, JSON both ways, one
 * error text, and the app-wide answers to 503/504 and 401. The call sites are small functions in
 * ./endpoints, so a generated client can replace this module without touching components.
 */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const auth = options.auth !== false ? authHeaders(options.bearer) : {};
  Object.assign(headers, auth);
  if (options.json !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(path, {
    method: options.method ?? (options.json !== undefined ? 'POST' : 'GET'),
    headers,
    credentials: 'include',
    body: options.json !== undefined ? JSON.stringify(options.json) : undefined,
    signal: options.signal,
  });
  const text = await res.text();
  if (!res.ok) {
    reportStatus(res.status, 'Authorization' in auth);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    throw new ApiError(res.status, errorTextOf(text, res.statusText, res.status), body);
  }
  if (!text) return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ApiError(res.status, 'Unexpected server response');
  }
}
