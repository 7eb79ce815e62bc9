// Composition root of the embedded default (`npm start`): every service, the gateway and a
// real embedded PostgreSQL in one process tree, on the in-process bus. Setting DATABASE_URL or
// KAFKA_BROKERS switches those parts to the real servers; nothing else changes.
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  startObservability,
  createBus,
  createLogger,
  InProcessBus,
  loadConfig,
  startEmbeddedPostgres,
  startService,
  stopOnSignals,
  type RunningService,
  type ServiceDefinition,
} from '@flatlay/platform';
import { createAnalyticsService } from '@flatlay/analytics';
import { createBillingService } from '@flatlay/billing';
import { createIdentityService } from '@flatlay/identity';
import { createImageService } from '@flatlay/image';
import { ledgerService } from '@flatlay/ledger';
import {
  createGatewayApp,
  filesFromEnv,
  listen,
  rateLimitsFrom,
  serviceClients,
  startDataExports,
  startGatewayCache,
  type DataExportWorker,
  type GatewayCache,
} from '@flatlay/gateway';
import { embeddedEnvSchema } from './config.js';
import { embeddedReturnOrigins } from './embedded-origins.js';

// apps/embedded/{src,dist}/embedded.*: three folders up.
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

const config = loadConfig(embeddedEnvSchema);

// One metrics endpoint for the whole process: every service's and the gateway's series, each
// service's told apart by its labels (docs/operations.md, "Metrics").
const { logger, metrics } = await startObservability({
  name: 'flatlay',
  logLevel: config.LOG_LEVEL,
  metricsPort: config.METRICS_PORT,
  host: config.HOST,
});
const dataDir = resolve(config.FLATLAY_DATA_DIR);
await mkdir(dataDir, { recursive: true });

const postgres = config.DATABASE_URL ? undefined : await startEmbeddedPostgres(join(dataDir, 'postgres'));
const databaseUrl = config.DATABASE_URL ?? postgres!.url;
const bus = createBus(config.KAFKA_BROKERS, 'flatlay', undefined, config.KAFKA_TOPIC_PREFIX);
const services: RunningService[] = [];
const rateLimits = rateLimitsFrom(config);

let cache: GatewayCache | undefined;
let dataExports: DataExportWorker | undefined;

async function stopAll(): Promise<void> {
  await http?.stop();
  await dataExports?.stop();
  await cache?.close();
  await rateLimits.close();
  for (const s of services.reverse()) await s.stop();
  await bus.close();
  await postgres?.stop();
  await metrics.stop();
}

let http: Awaited<ReturnType<typeof listen>> | undefined;
try {
  const start = (def: ServiceDefinition) =>
    startService(def, {
      databaseUrl,
      database: `${config.DATABASE_NAME_PREFIX}${def.name}`,
      bus,
      grpcPort: 0,
      replayOutboxOnStart: bus instanceof InProcessBus,
      logger: createLogger(def.name, config.LOG_LEVEL),
    });
  const identity = createIdentityService({
    // A generated signing key kept with the data, so restarts keep sessions (JWT_PRIVATE_KEY wins).
    ...(process.env.JWT_PRIVATE_KEY
      ? {}
      : { JWT_KEY_FILE: process.env.JWT_KEY_FILE || join(dataDir, 'identity', 'jwt-signing-key.pem') }),
    // With no SMTP server, account e-mail is written under the data folder and its links logged.
    MAIL_DIR: process.env.MAIL_DIR || join(dataDir, 'mail'),
    PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL || `http://localhost:${config.PORT}`,
  });
  // Operator secrets are sealed with a key generated once and kept with the data
  // (SETTINGS_ENCRYPTION_KEY wins): analytics makes the file, the image service opens the
  // generative key with it.
  const settingsKey = process.env.SETTINGS_ENCRYPTION_KEY
    ? {}
    : {
        SETTINGS_ENCRYPTION_KEY_FILE:
          process.env.SETTINGS_ENCRYPTION_KEY_FILE || join(dataDir, 'analytics', 'settings-encryption.key'),
      };
  // The image service (with one generation worker in this process unless IMAGE_IN_PROCESS_WORKER
  // is `0`) keeps its files under the data folder and asks for the ledger's address on its first
  // call, when every service is up.
  const image = createImageService({
    config: { FLATLAY_DATA_DIR: dataDir, ...settingsKey },
    ledgerAddress: () => `127.0.0.1:${services.find((s) => s.name === 'ledger')!.port}`,
    inProcessWorker: config.IMAGE_IN_PROCESS_WORKER === '1',
  });
  // Checkout return pages and the local payment provider's pages are on this product's own address;
  // a client's return addresses may also be on any loopback name of this port or a CORS origin.
  const billing = createBillingService({
    env: {
      PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL || `http://localhost:${config.PORT}`,
      // Receipts beside identity's messages when no SMTP_URL is set.
      MAIL_DIR: process.env.MAIL_DIR || join(dataDir, 'mail'),
      RETURN_URL_ORIGINS: [
        ...embeddedReturnOrigins(config.PORT, config.CORS_ORIGINS),
        ...(process.env.RETURN_URL_ORIGINS ? [process.env.RETURN_URL_ORIGINS] : []),
      ].join(','),
    },
  });
  const analyticsService = createAnalyticsService({ settings: settingsKey });
  // No start order: no service needs another's address at start (the gateway gets them all below).
  // Those that did start are stopped again if one fails.
  const started = await Promise.allSettled([ledgerService, identity, image, billing, analyticsService].map(start));
  for (const s of started) if (s.status === 'fulfilled') services.push(s.value);
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) throw failed.reason;
  cache = startGatewayCache(bus, logger, { ttlMs: config.GATEWAY_CACHE_TTL_SECONDS * 1000 });
  // Uploads and files in the image service's store (the same data folder, or S3 when S3_* is set).
  const files = filesFromEnv({ FLATLAY_DATA_DIR: dataDir });
  const gatewayServices = services.map((s) => ({ name: s.name, address: `127.0.0.1:${s.port}` }));
  const clients = serviceClients(gatewayServices);
  dataExports = startDataExports(clients, files, logger);
  const app = createGatewayApp({
    logger,
    cache,
    clients,
    dataExports,
    rateLimits: rateLimits.options,
    trustProxy: config.TRUST_PROXY,
    corsOrigins: config.CORS_ORIGINS ?? [`http://localhost:${config.PORT}`],
    webDir: join(repoRoot, 'web', 'dist'),
    files,
    services: gatewayServices,
  });
  http = await listen(app, config.HOST, config.PORT);
} catch (error) {
  logger.fatal({ err: error }, 'Flatlay could not start');
  await stopAll().catch(() => undefined);
  process.exit(1);
}
logger.info(
  {
    url: `http://localhost:${http.port}`,
    postgres: postgres ? 'embedded' : 'external',
    bus: bus instanceof InProcessBus ? 'in-process' : 'kafka',
    metrics: metrics.url ?? 'off',
  },
  'Flatlay is running',
);
// One plain sentence for the person at the terminal, beside the JSON logs.
process.stdout.write(
  `\nFlatlay is running at http://localhost:${http.port} (${postgres ? `embedded PostgreSQL in ${dataDir}` : 'PostgreSQL at DATABASE_URL'}, ${bus instanceof InProcessBus ? 'in-process bus' : 'Kafka'}). Press Ctrl-C to stop.\n${metrics.url ? `Metrics for Prometheus: ${metrics.url}\n` : ''}\n`,
);
stopOnSignals(stopAll, logger);
