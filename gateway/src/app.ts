import { createHmac } from 'node:crypto';
import express, { type Express } from 'express';
import helmet from 'helmet';
import { call, type Logger } from '@flatlay/platform';
import { mountRoutes, unknownApiPaths } from './api/router.js';
import type { GatewayCache } from './cache/index.js';
import { serviceClients, type ServiceClients } from './clients.js';
import { filesFromEnv } from './files/index.js';
import { fileRoutes, type FileServing } from './files/serve.js';
import type { DataExportWorker } from './exports/data-export-worker.js';
import { createAuthenticator } from './http/auth.js';
import { defaultTrustProxy, type TrustProxy } from './http/client-address.js';
import { apiCors } from './http/cors.js';
import { apiNotFound, errorMapper } from './http/errors.js';
import {
  type AuthRateLimitOptions,
  authRateLimits,
  countFailedSignIns,
  defaultAuthRateLimits,
} from './http/rate-limit.js';
import { defaultGuestTryLimits, giveBackGuestTry, guestTryLimits } from './http/guest-limits.js';
import { fastJson } from './http/json.js';
import { measureRequests } from './http/metrics.js';
import { requestId } from './http/request-id.js';
import { inSequence } from './http/sequence.js';
import { staticHeaders } from './http/static-headers.js';
import { compressAnswers, serveWebApp, webAppBuilt } from './web/serve-web-app.js';
import { traceRequests } from './http/tracing.js';
import { GUARDED_AREAS, guardAdminAreas } from './routes/admin-auth.js';
import { healthCheck, type ServiceAddress } from './routes/health.js';
import { localPaymentPages } from './routes/local-payment-pages.js';
import { productsAnswer } from './routes/payments-catalogue.js';
import { apiRoutes } from './routes/index.js';
import { contentSecurityPolicy, type WebSettings, webSettingsFromEnv } from './web-settings.js';

export interface GatewayOptions {
  services: ServiceAddress[];
  logger: Logger;
  /** Origins allowed to call /api from a browser (the SPA itself is same-origin). */
  corsOrigins: string[];
  /** The built React app; when absent, non-API paths answer a short note. */
  webDir?: string;
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
  /**
   * Where uploads go and files come from (the image service's blob store), and the key its file
   * URLs are signed with; from the environment when absent (`filesFromEnv`).
   */
  files?: FileServing;
  /** The web app's deployment settings (Google client id, pixels); from the environment when absent. */
  web?: WebSettings;
  /**
   * What this instance remembers of each user (verified tokens, profile, balance), invalidated
   * over the bus (ADR 0510); without it every request asks the services.
   */
  cache?: GatewayCache;
  /** This instance's data-export worker (ADR 0403), told when a request is made; without it the requests wait for one. */
  dataExports?: Pick<DataExportWorker, 'nudge'>;
}

export function createGatewayApp(options: GatewayOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  // No ETag on JSON answers: hashing every body costs more than a revalidation of an API answer
  // saves (static files keep theirs, from express.static).
  app.set('etag', false);
  // With no ETag, res.json writes its answer directly (http/json.ts).
  fastJson(app);
  app.set('trust proxy', options.trustProxy ?? defaultTrustProxy);

  const serviceClientsOf = options.clients ?? serviceClients(options.services);
  const clients = options.cache ? options.cache.wrap(serviceClientsOf) : serviceClientsOf;
  const auth = createAuthenticator(clients);
  const rateLimits = options.rateLimits ?? defaultAuthRateLimits;
  const limit = authRateLimits(rateLimits);
  const files = options.files ?? filesFromEnv();
  // A guest's tries: counted in the same store as sign-in attempts; unfinished ones by the image
  // service, which records each try's client as a hash keyed from the file URL key.
  const guestTries = guestTryLimits(rateLimits.guestTries ?? defaultGuestTryLimits, {
    redis: rateLimits.redis,
    keyPrefix: rateLimits.keyPrefix,
    clientKey: createHmac('sha256', files.urlKey).update('flatlay guest client key v1').digest(),
    unfinished: async (guestEmail, guestClient) => {
      const c = clients.image();
      return call(c, c.countUnfinishedGuestTries, { guestEmail, guestClient });
    },
  });
  const routes = apiRoutes(clients, options.logger, files, () => options.dataExports?.nudge()).routes;
  const cors = apiCors(options.corsOrigins);

  // The CSP allows the third-party origins of configured features only (Google sign-in, pixels).
  // Helmet's headers depend on nothing in the request: worked out once, set by a loop.
  const web = options.web ?? webSettingsFromEnv();
  const csp = contentSecurityPolicy(web);
  const securityHeaders = staticHeaders(helmet({ contentSecurityPolicy: { directives: csp } }));
  // Every request: its metrics, its id, its trace, the security headers, in one router layer; then an /api
  // path that can match no operation is answered 404 at once, as the /api router would (with its
  // CORS headers), without entering that router and trying every operation and 405 against it.
  const unknownApi = unknownApiPaths(routes, GUARDED_AREAS, cors);
  app.use(inSequence(measureRequests, requestId, traceRequests, securityHeaders, ...(unknownApi ? [unknownApi] : [])));
  app.use(compressAnswers());
  app.get('/healthz', healthCheck(options.services));

  const api = express.Router();
  api.use(cors);
  // Every operation is declared once (routes/<area>.ts) and mounted with its full path on this
  // router, with its body limits, access, validation and 405s; the route inventory test reads
  // every (method, path) Express serves here. Answers are checked against the document in
  // tests and development only: it costs a parse per answer.
  const checkResponses = process.env.NODE_ENV === 'test' || process.env.NODE_ENV === 'development';
  mountRoutes(api, routes, {
    auth,
    limit,
    checkResponses,
    blobs: files.blobs,
    guestTries,
  });
  guardAdminAreas(api, auth);
  // After every route: a refused sign-in counts against its e-mail address before the answer leaves.
  api.use(countFailedSignIns);
  // A guest's try that was refused or failed gives back what it counted.
  api.use(giveBackGuestTry);
  api.use(apiNotFound);
  app.use('/api', api);
  app.locals.apiRouter = api;

  // Signed, expiring file URLs (results, previews, originals) handed out by the image service.
  app.use(fileRoutes(files, options.logger));
  // The local payment provider's checkout and portal pages (billing answers 404 when Stripe is in use).
  app.use(localPaymentPages(clients, options.logger));

  const webDir = options.webDir;
  if (webAppBuilt(webDir)) {
    app.use(serveWebApp(webDir, { publicBaseUrl: web.publicBaseUrl, products: () => productsAnswer(clients) }));
  } else {
    app.get('/{*path}', (_req, res) =>
      res.status(404).type('text').send('The web app is not built. Run `npm run build`.'),
    );
  }
  app.use(errorMapper(options.logger));
  return app;
}
