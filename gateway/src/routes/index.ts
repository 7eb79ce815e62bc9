import { z } from 'zod';
import type { oas31 } from 'zod-openapi';
import { createLogger, type Logger } from '@flatlay/platform';
import { buildOpenApiDocument } from '../api/document.js';
import { route, type ApiRoute } from '../api/route.js';
import { serviceClients, type ServiceClients } from '../clients.js';
import { adminAuthRoutes } from './admin-auth.js';
import { adminRoutes } from './admin.js';
import { adminDeadLetterRoutes } from './admin-dead-letters.js';
import { adminRefundRoutes } from './admin-refunds.js';
import { accountCareRoutes } from './account-care.js';
import { authRoutes } from './auth.js';
import type { FileServing } from '../files/serve.js';
import { imageEventRoutes } from './image-events.js';
import { imageRoutes } from './images.js';
import { paymentRoutes } from './payments.js';
import { subscriptionRoutes } from './subscription.js';
import { settingsRoutes } from './settings.js';
import { tokenRoutes } from './tokens.js';
import { webConfigRoutes } from '../web-settings.js';
import { webhookRoutes } from './webhooks.js';

/**
 * Every /api operation, each declared once (one file per area), and the document made from
 * them, served at /api/openapi.json. The document is built here once, at start.
 */
export function apiRoutes(
  clients: ServiceClients,
  logger: Logger,
  files?: Pick<FileServing, 'urlKey'>,
  exportRequested?: () => void,
): { routes: ApiRoute[]; document: oas31.OpenAPIObject } {
  const routes: ApiRoute[] = [];
  let document: oas31.OpenAPIObject | undefined;
  routes.push(
    route({
      method: 'get',
      path: '/openapi.json',
      tags: ['meta'],
      access: 'none',
      summary: 'This document (OpenAPI 3.1)',
      responses: {
        200: { description: 'The OpenAPI 3.1 document of /api', schema: z.object({ openapi: z.string() }).loose() },
      },
      handle(_req, res) {
        // The document is made below, from every operation (this one included).
        res.json(document as oas31.OpenAPIObject & { [key: string]: unknown });
      },
    }),
    ...authRoutes(clients, logger),
    ...accountCareRoutes(clients, exportRequested),
    ...tokenRoutes(clients),
    ...imageRoutes(clients, { urlKey: files?.urlKey ?? Buffer.alloc(32), logger }),
    ...imageEventRoutes(clients, { urlKey: files?.urlKey ?? Buffer.alloc(32), logger }),
    ...adminAuthRoutes(clients),
    ...adminRoutes(clients),
    ...adminRefundRoutes(clients),
    ...adminDeadLetterRoutes(clients),
    ...webConfigRoutes(),
    ...paymentRoutes(clients, { urlKey: files?.urlKey ?? Buffer.alloc(32) }),
    ...subscriptionRoutes(clients),
    ...webhookRoutes(clients),
    ...settingsRoutes(clients),
  );
  document = buildOpenApiDocument(routes);
  return { routes, document };
}

/** The document without a running gateway (the build writes it to gateway/openapi/openapi.json). */
export function apiDocument(): oas31.OpenAPIObject {
  // The clients are made on first use; building the document never calls a service.
  return apiRoutes(serviceClients([]), createLogger('openapi', 'silent')).document;
}

/**
 * What the gateway serves outside /api. The route inventory test checks that Express serves
 * exactly these there, and exactly the document's operations under /api.
 */
export const routesOutsideApi = [
  {
    method: 'GET',
    path: '/healthz',
    what: "200 when every service is ready, else 503; each service's state either way",
  },
  {
    method: 'GET',
    path: '/files/*key',
    what: 'Files the image service hands out (results, previews, originals) at signed URLs that expire; 403 for a link past its expiry or with a changed path',
  },
  { method: 'GET', path: '/checkout/local/:id', what: "The local payment provider's checkout page (no Stripe key)" },
  { method: 'POST', path: '/checkout/local/:id', what: 'Pay or Cancel on that page (CSRF token), then 303 on' },
  { method: 'GET', path: '/billing/local/:id', what: "The local payment provider's billing portal page" },
  {
    method: 'POST',
    path: '/billing/local/:id',
    what: 'Cancel or resume the subscription there (CSRF token), then 303 back',
  },
  { method: 'GET', path: '/{*path}', what: 'The web app (static files, then index.html for client-side routes)' },
] as const;
