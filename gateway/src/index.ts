export { createGatewayApp, type GatewayOptions } from './app.js';
export { gatewayEnvSchema, type GatewayConfig } from './config.js';
export { listen } from './server.js';
export { startGatewayCache, UserFactsCache, GATEWAY_CACHE_TOPIC, type GatewayCache } from './cache/index.js';
