export { createGatewayApp, type GatewayOptions } from './app.js';
export { serviceClients, type ServiceClients } from './clients.js';
export {
  cacheEnvSchema,
  gatewayEnvSchema,
  rateLimitEnvSchema,
  rateLimitsFrom,
  type GatewayConfig,
} from './config.js';
export { filesEnvSchema, filesFromEnv } from './files/index.js';
export { listen } from './server.js';
export { startGatewayCache, UserFactsCache, GATEWAY_CACHE_TOPIC, type GatewayCache } from './cache/index.js';
export { startDataExports, exportKey, type DataExportWorker } from './exports/data-export-worker.js';
