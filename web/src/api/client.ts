// The one way the web app calls /api: openapi-fetch over the types generated from the gateway's
// declarations (./schema), with the web client's rules of ./http as its middleware. Every call
// names a documented path; there is no raw request helper (api-calls.unit.spec.tsx keeps it so).
// Uploads with progress (./upload) and the image event stream are the only requests made
// otherwise, and their paths and answers are typed from the same document.
import createClient, { type Middleware } from 'openapi-fetch';
import { applyRequestRules, readAnswer, requestDefaults } from './http';
import type { paths } from './schema';

/**
 * The rules of ./http as openapi-fetch middleware: Accept and the bearer token on the way out; on
 * the way back the 503/504 reset, the 401 sign-out and an ApiError with the error text for any
 * non-ok answer, and 'Unexpected server response' for an ok answer that is not JSON.
 */
export function apiRules(options: { auth?: boolean } = {}): Middleware {
  return {
    onRequest({ request }) {
      applyRequestRules(request.headers, options);
      return request;
    },
    async onResponse({ request, response }) {
      await readAnswer(response.clone(), request.headers.has('Authorization'));
      return response;
    },
  };
}

/** A typed client of /api with the given rules (the admin pages bring their own, see features/admin). */
export function typedClient(rules: Middleware | null, init: { credentials?: RequestCredentials } = requestDefaults) {
  const client = createClient<paths>({
    // A Request (unlike fetch with a string) needs an absolute URL outside a document (tests).
    baseUrl: `${globalThis.location?.origin ?? ''}/api`,
    ...init,
    // Looked up per call, so a test's stubbed fetch is the one used.
    fetch: (request) => globalThis.fetch(request),
  });
  if (rules) client.use(rules);
  return client;
}

/** Calls that send the stored token (or the one they set in Authorization). */
export const api = typedClient(apiRules({}));
/**
 * Calls that send no stored token: sign-in (a 401 there is a wrong password, not a dead session),
 * the catalogue and a guest's try.
 */
export const noTokenApi = typedClient(apiRules({ auth: false }));

/**
 * The body of a typed call's answer. The middleware has already thrown for anything but an ok
 * JSON answer; this only narrows openapi-fetch's `{ data } | { error }` to the data.
 */
export async function answerOf<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data } = await call;
  return data as T;
}
