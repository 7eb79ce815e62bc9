export { createGatewayApp, type GatewayOptions } from './app.js';
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
