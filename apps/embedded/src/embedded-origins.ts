// Where the embedded default (`npm start`) is reached: a person may open it at any loopback name
// of its port (http://127.0.0.1:8080 as well as http://localhost:8080), or at an origin the
// operator listed in CORS_ORIGINS. Billing accepts a client's checkout return addresses on these
// origins (RETURN_URL_ORIGINS) besides PUBLIC_BASE_URL's, and still refuses any other.

/** The http(s) origins the embedded product on `port` is reached at: its loopback names, then CORS_ORIGINS. */
export function embeddedReturnOrigins(port: number, corsOrigins: readonly string[] = []): string[] {
  const origins = [`http://localhost:${port}`, `http://127.0.0.1:${port}`, `http://[::1]:${port}`];
  for (const listed of corsOrigins) {
    const origin = httpOrigin(listed);
    if (origin) origins.push(origin);
  }
  return [...new Set(origins)];
}

/** The origin of an http(s) address, or undefined for anything else (a wildcard, a typo). */
function httpOrigin(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}
