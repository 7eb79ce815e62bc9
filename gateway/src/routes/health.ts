import { Router } from 'express';
import { checkHealth, type HealthState } from '@flatlay/platform';

export interface ServiceAddress {
  name: string;
  address: string;
}

/** GET /healthz: 200 only when every service answers SERVING, else 503; each service's state either way. */
export function healthRoutes(services: ServiceAddress[]): Router {
  const router = Router();
  router.get('/healthz', async (_req, res) => {
    const states = await Promise.all(
      services.map(async (s) => [s.name, await checkHealth(s.address)] as [string, HealthState]),
    );
    const ready = states.every(([, state]) => state === 'SERVING');
    res.status(ready ? 200 : 503).json({ status: ready ? 'ok' : 'unavailable', services: Object.fromEntries(states) });
  });
  return router;
}
