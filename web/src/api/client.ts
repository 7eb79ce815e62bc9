// The typed client of the /api operations the OpenAPI document declares: openapi-fetch over the
// generated types (./schema), with the web client's rules of ./http as its middleware, so both
// paths (typed and raw) send and read the same way.
import createClient, { type Middleware } from 'openapi-fetch';
import { applyRequestRules, readAnswer, requestDefaults } from './http';
import type { paths } from './schema';

/**
 * The rules of ./http as openapi-fetch middleware: Accept and the bearer token on the way out; on
 * the way back the 503/504 reset, the 401 sign-out and an ApiError with the error text for any
 * non-ok answer (so a typed call rejects exactly as `apiRequest` does), and 'Unexpected server
 * response' for an ok answer that is not JSON.
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

function typedClient(options: { auth?: boolean }) {
  const client = createClient<paths>({
    // A Request (unlike fetch with a string) needs an absolute URL outside a document (tests).
    baseUrl: `${globalThis.location?.origin ?? ''}/api`,
    ...requestDefaults,
    // Looked up per call, so a test's stubbed fetch is the one used.
    fetch: (request) => globalThis.fetch(request),
  });
  client.use(apiRules(options));
  return client;
}

/** Calls that send the stored token (or the one they set in Authorization). */
export const api = typedClient({});
/** Sign-in calls: no stored token (a 401 there is a wrong password, not a dead session). */
export const signInApi = typedClient({ auth: false });

/**
 * The body of a typed call's answer. The middleware has already thrown for anything but an ok
 * JSON answer; this only narrows openapi-fetch's `{ data } | { error }` to the data.
 */
export async function answerOf<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data } = await call;
  return data as T;
}
