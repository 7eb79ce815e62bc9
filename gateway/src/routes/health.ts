import type { RequestHandler, Response } from 'express';
import type { HealthState } from '@flatlay/platform';
import { sendJsonText } from '../http/json.js';
import { serviceHealth } from '../http/service-health.js';

export interface ServiceAddress {
  name: string;
  address: string;
}

/**
 * GET /healthz: 200 only when every service answers SERVING, else 503; each service's state either
 * way (asked at most once a second, see serviceHealth). Mounted on the app itself (no router of
 * its own for every other request to pass through); each round's answer is written once.
 */
export function healthCheck(services: ServiceAddress[]): RequestHandler {
  const health = serviceHealth(services);
  let last: { states: Array<[string, HealthState]>; status: number; body: string } | undefined;
  const answer = (res: Response, states: Array<[string, HealthState]>) => {
    if (last?.states !== states) {
      const ready = states.every(([, state]) => state === 'SERVING');
      const body = { status: ready ? 'ok' : 'unavailable', services: Object.fromEntries(states) };
      last = { states, status: ready ? 200 : 503, body: JSON.stringify(body) };
    }
    res.statusCode = last.status;
    sendJsonText(res, last.body);
  };
  return (_req, res, next) => {
    const fresh = health.fresh();
    if (fresh) return answer(res, fresh);
    health().then((states) => answer(res, states), next);
  };
}
