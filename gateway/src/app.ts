import { existsSync } from 'node:fs';
import { join } from 'node:path';
import cors from 'cors';
import express, { type Express } from 'express';
import helmet from 'helmet';
import type { Logger } from '@flatlay/platform';
import { serviceClients, type ServiceClients } from './clients.js';
import { createAuthenticator } from './http/auth.js';
import { apiNotFound, errorMapper } from './http/errors.js';
import { requireReadableBody } from './http/body-type.js';
import {
  authRateLimits,
  countFailedSignIns,
  defaultAuthRateLimits,
  type AuthRateLimitOptions,
} from './http/rate-limit.js';
import { defaultTrustProxy, type TrustProxy } from './http/client-address.js';
import { requestId } from './http/request-id.js';
import { traceRequests } from './http/tracing.js';
import { openApiDocument } from './openapi.js';
import { adminAuthRoutes } from './routes/admin-auth.js';
import { authRoutes } from './routes/auth.js';
import { healthRoutes, type ServiceAddress } from './routes/health.js';
import { tokenRoutes } from './routes/tokens.js';

export interface GatewayOptions {
  services: ServiceAddress[];
  logger: Logger;
  /** Origins allowed to call /api from a browser (the SPA itself is same-origin). */
  corsOrigins: string[];
  /** The built React app; when absent, non-API paths answer a short note. */
  webDir?: string;
  jsonLimit?: string;
  /** Sign-in and sign-up attempt limits (Redis-backed when `redis` is given). */
  rateLimits?: AuthRateLimitOptions;
  /**
   * Proxies allowed to name the client in X-Forwarded-For (TRUST_PROXY): a hop count, or their
   * addresses and ranges. Default: loopback only. Behind an ingress every client would otherwise
   * share the ingress pod's address, and so one rate-limit bucket.
   */
  trustProxy?: TrustProxy;
  /** gRPC clients of the services; made from `services` when absent. */
  clients?: ServiceClients;
}

export function createGatewayApp(options: GatewayOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', options.trustProxy ?? defaultTrustProxy);
  app.use(requestId);
  app.use(traceRequests);
  app.use(helmet({ contentSecurityPolicy: { directives: { 'img-src': ["'self'", 'data:', 'blob:'] } } }));
  app.use(healthRoutes(options.services));

  const clients = options.clients ?? serviceClients(options.services);
  const auth = createAuthenticator(clients);
  const limit = authRateLimits(options.rateLimits ?? defaultAuthRateLimits);

  const api = express.Router();
  api.use(cors({ origin: options.corsOrigins, credentials: true }));
  api.use(express.json({ limit: options.jsonLimit ?? '1mb' }));
  api.use(express.urlencoded({ extended: false, limit: options.jsonLimit ?? '1mb' }));
  api.use(requireReadableBody);
  api.use(auth.passport.initialize());
  // One file per /api area; routes are registered with their full path on this router, so the
  // OpenAPI test can read every (method, path) Express serves.
  api.get('/openapi.json', (_req, res) => {
    res.json(openApiDocument);
  });
  authRoutes(api, clients, auth, limit, options.logger);
  tokenRoutes(api, clients, auth);
  adminAuthRoutes(api, clients, auth, limit);
  api.use(countFailedSignIns);
  api.use(apiNotFound);
  app.use('/api', api);
  app.locals.apiRouter = api;

  const webDir = options.webDir;
  if (webDir && existsSync(join(webDir, 'index.html'))) {
    app.use(express.static(webDir, { index: false, maxAge: '1h' }));
    // Client-side routing: every other path is the SPA.
    app.get('/{*path}', (_req, res) => res.sendFile(join(webDir, 'index.html')));
  } else {
    app.get('/{*path}', (_req, res) =>
      res.status(404).type('text').send('The web app is not built. Run `npm run build`.'),
    );
  }
  app.use(errorMapper(options.logger));
  return app;
}
