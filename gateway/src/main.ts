// Composition root of the gateway as its own process.
import { fileURLToPath } from 'node:url';
import { createLogger, loadConfig, startTelemetry, stopOnSignals } from '@flatlay/platform';
import { createGatewayApp } from './app.js';
import { gatewayEnvSchema, rateLimitsFrom } from './config.js';
import { listen } from './server.js';

const config = loadConfig(gatewayEnvSchema);
startTelemetry('gateway');
const logger = createLogger('gateway', config.LOG_LEVEL);
const rateLimits = rateLimitsFrom(config);
const app = createGatewayApp({
  logger,
  rateLimits: rateLimits.options,
  corsOrigins: config.CORS_ORIGINS,
  webDir: config.WEB_DIR ?? fileURLToPath(new URL('../../web/dist', import.meta.url)),
  services: [
    { name: 'identity', address: config.IDENTITY_ADDR },
    { name: 'ledger', address: config.LEDGER_ADDR },
    { name: 'image', address: config.IMAGE_ADDR },
    { name: 'billing', address: config.BILLING_ADDR },
    { name: 'analytics', address: config.ANALYTICS_ADDR },
  ],
});
const http = await listen(app, config.HOST, config.PORT);
logger.info({ port: http.port }, 'gateway listening');
stopOnSignals(async () => {
  await http.stop();
  await rateLimits.close();
}, logger);
