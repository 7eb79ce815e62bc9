// Composition root of the gateway as its own process.
import { fileURLToPath } from 'node:url';
import {
  startObservability,
  createBus,
  loadConfig,
  calleesOf,
  ServiceCredential,
  servicePrivateKeyFrom,
  stopOnSignals,
} from '@flatlay/platform';
import { createGatewayApp } from './app.js';
import { startGatewayCache } from './cache/index.js';
import { serviceClients } from './clients.js';
import { filesFromEnv } from './files/index.js';
import { gatewayEnvSchema, rateLimitsFrom } from './config.js';
import { startDataExports } from './exports/data-export-worker.js';
import { listen } from './server.js';

const config = loadConfig(gatewayEnvSchema);
// Checked at start, before anything connects: its own key, and the image service's URL-signing key.
const credential = new ServiceCredential('gateway', servicePrivateKeyFrom(config));
const files = filesFromEnv({}, { standalone: true });
const { logger, metrics } = await startObservability({
  name: 'gateway',
  logLevel: config.LOG_LEVEL,
  metricsPort: config.METRICS_PORT,
  host: config.HOST,
});
const rateLimits = rateLimitsFrom(config);
const addressOf = {
  identity: config.IDENTITY_ADDR,
  ledger: config.LEDGER_ADDR,
  image: config.IMAGE_ADDR,
  billing: config.BILLING_ADDR,
  analytics: config.ANALYTICS_ADDR,
};
// A bus of its own (a consumer group per instance): without Kafka there is nothing to follow.
const bus = config.KAFKA_BROKERS?.length
  ? createBus(config.KAFKA_BROKERS, 'gateway', undefined, config.KAFKA_TOPIC_PREFIX)
  : undefined;
const cache = bus ? startGatewayCache(bus, logger, { ttlMs: config.GATEWAY_CACHE_TTL_SECONDS * 1000 }) : undefined;
const services = calleesOf('gateway').map((name) => ({ name, address: addressOf[name] }));
const clients = serviceClients(services, credential);
// Every instance makes the data exports that are due (identity hands each to one of them).
const dataExports = startDataExports(clients, files, logger);
const app = createGatewayApp({
  logger,
  rateLimits: rateLimits.options,
  trustProxy: config.TRUST_PROXY,
  corsOrigins: config.CORS_ORIGINS,
  webDir: config.WEB_DIR ?? fileURLToPath(new URL('../../web/dist', import.meta.url)),
  services,
  clients,
  files,
  cache,
  dataExports,
});
const http = await listen(app, config.HOST, config.PORT);
logger.info({ port: http.port }, 'gateway listening');
stopOnSignals(async () => {
  await http.stop();
  await dataExports.stop();
  await cache?.close();
  await bus?.close();
  await rateLimits.close();
  await metrics.stop();
}, logger);
