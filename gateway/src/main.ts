// Composition root of the gateway as its own process.
import { fileURLToPath } from 'node:url';
import {
  createLogger,
  loadConfig,
  registry,
  ServiceCredential,
  startTelemetry,
  stopOnSignals,
} from '@flatlay/platform';
import { createGatewayApp } from './app.js';
import { serviceClients } from './clients.js';
import { gatewayEnvSchema, rateLimitsFrom } from './config.js';
import { listen } from './server.js';

const config = loadConfig(gatewayEnvSchema);
startTelemetry('gateway');
const logger = createLogger('gateway', config.LOG_LEVEL);
const rateLimits = rateLimitsFrom(config);
const addressOf = {
  identity: config.IDENTITY_ADDR,
  ledger: config.LEDGER_ADDR,
  image: config.IMAGE_ADDR,
  billing: config.BILLING_ADDR,
  analytics: config.ANALYTICS_ADDR,
};
const services = registry.gateway.calls.map((name) => ({ name, address: addressOf[name] }));
const app = createGatewayApp({
  logger,
  rateLimits: rateLimits.options,
  trustProxy: config.TRUST_PROXY,
  corsOrigins: config.CORS_ORIGINS,
  webDir: config.WEB_DIR ?? fileURLToPath(new URL('../../web/dist', import.meta.url)),
  services,
  clients: serviceClients(services, new ServiceCredential('gateway', config.SERVICE_AUTH_SECRET)),
});
const http = await listen(app, config.HOST, config.PORT);
logger.info({ port: http.port }, 'gateway listening');
stopOnSignals(async () => {
  await http.stop();
  await rateLimits.close();
}, logger);
