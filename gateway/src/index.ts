export { createGatewayApp, type GatewayOptions } from './app.js';
export { gatewayEnvSchema, type GatewayConfig } from './config.js';
export { listen } from './server.js';
