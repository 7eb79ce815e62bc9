import { Router } from 'express';
import { serviceHealth } from '../http/service-health.js';

export interface ServiceAddress {
  name: string;
  address: string;
}

/**
 * GET /healthz: 200 only when every service answers SERVING, else 503; each service's state either
 * way (asked at most once a second, see serviceHealth).
 */
export function healthRoutes(services: ServiceAddress[]): Router {
  const router = Router();
  const health = serviceHealth(services);
  router.get('/healthz', async (_req, res) => {
    const states = await health();
    const ready = states.every(([, state]) => state === 'SERVING');
    res.status(ready ? 200 : 503).json({ status: ready ? 'ok' : 'unavailable', services: Object.fromEntries(states) });
  });
  return router;
}
