// A small client of a running product's /api for the suites that start it as processes or
// containers (no stack object to ask): a JSON or form body in, the status and parsed body out.
export interface ApiReply<B> {
  status: number;
  body: B;
}

export interface ApiOptions {
  token?: string;
  json?: unknown;
  form?: FormData | URLSearchParams;
}

/**
 * Calls `<base>/api<path>`; a body that is not JSON comes back as its text. `base` may be a
 * function, for a suite that learns its product's address in `beforeAll`.
 */
export function apiClient(base: string | (() => string)) {
  const baseOf = typeof base === 'function' ? base : () => base;
  return async <B>(method: string, path: string, options: ApiOptions = {}): Promise<ApiReply<B>> => {
    const headers: Record<string, string> = {};
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.json !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${baseOf()}/api${path}`, {
      method,
      headers,
      body: options.form ?? (options.json === undefined ? undefined : JSON.stringify(options.json)),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, body: body as B };
  };
}
