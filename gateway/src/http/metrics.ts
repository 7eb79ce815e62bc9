// RED metrics of every HTTP route: one duration histogram per (route template, method, status),
// whose count is the rate and whose 5xx share is the error ratio.
import type { Request, RequestHandler } from 'express';
import { instrument, LATENCY_BUCKETS_S, routeTemplate, statusClass } from '@flatlay/platform';

const requestDuration = () =>
  instrument('http.server.request.duration', (meter) =>
    meter.createHistogram('http.server.request.duration', {
      description: 'Duration of HTTP requests the gateway answered, by route template, method and status',
      unit: 's',
      advice: { explicitBucketBoundaries: LATENCY_BUCKETS_S },
    }),
  );

/** Where the request's matched route was mounted: the /api router's operations carry their own path below /api. */
const mountOf = (req: Request) => (/^\/api(\/|$)/i.test(req.originalUrl) ? '/api' : '');

/** The methods Express serves; anything else a client sends is counted as `_OTHER` (OpenTelemetry's rule). */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Times each request to its last byte. The route is read when the answer is finished, from the
 * route Express matched (`req.route`): a template such as `/api/images/:id`, never the path, so
 * ids never become labels; a request no route matched (a 404, a static file) has no `http.route`.
 */
export const measureRequests: RequestHandler = (req, res, next) => {
  const started = performance.now();
  res.once('finish', () => {
    const route = routeTemplate(mountOf(req), req.route?.path);
    const attributes: Record<string, string | number> = {
      'http.request.method': KNOWN_METHODS.has(req.method) ? req.method : '_OTHER',
      'http.response.status_code': res.statusCode,
      'http.response.status_class': statusClass(res.statusCode),
    };
    if (route) attributes['http.route'] = route;
    requestDuration().record((performance.now() - started) / 1000, attributes);
  });
  next();
};
