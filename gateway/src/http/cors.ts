import cors from 'cors';
import type { RequestHandler } from 'express';

/**
 * CORS for /api as the `cors` package answers it (the request's origin reflected when it is
 * allowed, `Vary: Origin`, credentials allowed), set directly for every request but a preflight:
 * `cors` merges its options into a new object and walks its header lists on every request,
 * including the many that carry no Origin at all (same-origin reads, servers, probes). Preflights
 * (OPTIONS), and an answer that already varies on something, go to `cors` itself.
 */
export function apiCors(origins: string[]): RequestHandler {
  const full = cors({ origin: origins, credentials: true });
  const allowed = new Set(origins);
  return (req, res, next) => {
    if (req.method === 'OPTIONS' || res.getHeader('Vary') !== undefined) return full(req, res, next);
    const origin = req.headers.origin;
    if (origin !== undefined && allowed.has(origin)) res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
    res.setHeader('Access-Control-Allow-Credentials', 'true');
    next();
  };
}
