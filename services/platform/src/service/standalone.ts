import { z } from 'zod';
import { env, loadConfig } from '../config.js';
import { metricsEnvSchema } from '../metrics/provider.js';
import { startObservability } from '../observability.js';
import { registry } from '../registry.js';
import {
  readPublicKeys,
  serviceIdentityEnvSchema,
  servicePrivateKeyFrom,
  servicePublicKeysEnvSchema,
} from '../grpc/service-keys.js';
import { createBus } from './bus-config.js';
import { startService, stopOnSignals, type ServiceContext, type ServiceDefinition } from './runtime.js';

/** Configuration every service process reads (a service adds its own on top). */
export const serviceEnvSchema = z
  .object({
    DATABASE_URL: env.url().meta({
      description:
        'a PostgreSQL server; each service creates and migrates its own database `flatlay_<service>` on it. Required for a service run as its own process',
    }),
    KAFKA_BROKERS: env.csv().optional().meta({
      description:
        "comma-separated Kafka brokers; topics are created by the services (or Strimzi). The gateway as its own process follows identity's and the ledger's events there to keep its cache right (without it the gateway keeps nothing between requests)",
      default: 'unset: in-process bus',
    }),
    // This service's own Kafka user (SCRAM-SHA-512): both or neither.
    KAFKA_SASL_USERNAME: z.string().min(1).optional().meta({
      description:
        "a service's own Kafka user (SCRAM-SHA-512), with `KAFKA_SASL_PASSWORD` (both or neither); in Kubernetes the chart reads them from that service's Strimzi KafkaUser Secret",
      default: 'unset: no authentication',
    }),
    KAFKA_SASL_PASSWORD: z.string().min(1).optional().meta({
      description:
        "the password of `KAFKA_SASL_USERNAME`'s Kafka user (SCRAM-SHA-512); in Kubernetes from that service's Strimzi KafkaUser Secret",
      default: 'unset: no authentication',
    }),
    KAFKA_TOPIC_PREFIX: env.kafkaTopicPrefix().meta({
      description:
        "a namespace on a shared Kafka broker: every topic (dead-letter topics included) and consumer group is `<prefix><name>` there (letters, digits, `.`, `_`, `-`). Each test stack takes a fresh one so no test reads another's history (ADR 0010); leave it unset in production",
      default: 'unset: topics and consumer groups by their own names',
    }),
    GRPC_HOST: z
      .string()
      .default('0.0.0.0')
      .meta({ description: 'the interface a service run as its own process serves gRPC on' }),
    GRPC_PORT: env.port(50051).meta({
      description: 'the port a service run as its own process serves gRPC on',
      default: 'per service: identity 50051, ledger 50052, image 50053, billing 50054, analytics 50055',
    }),
    LOG_LEVEL: env.logLevel().meta({
      description: '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`; logs are JSON lines with trace ids',
    }),
  })
  // Its own private key signs its calls; the callers' public keys check the calls it serves.
  .extend(serviceIdentityEnvSchema.shape)
  .extend(servicePublicKeysEnvSchema.shape)
  .extend(metricsEnvSchema.shape);

/** What GetServiceStatus answers, the same for every service. */
export function serviceStatus(ctx: ServiceContext) {
  return {
    service: ctx.name,
    version: ctx.version,
    schemaVersion: ctx.schemaVersion,
    uptimeSeconds: Math.floor((Date.now() - ctx.startedAt.getTime()) / 1000),
  };
}

/** Runs one service as its own process (the Kubernetes shape): config, telemetry, signals. */
export async function runStandalone(def: ServiceDefinition): Promise<void> {
  const config = loadConfig(serviceEnvSchema.extend({ GRPC_PORT: env.port(registry[def.name].grpcPort) }));
  const { logger, metrics } = await startObservability({
    name: def.name,
    metricsName: def.caller ?? def.name,
    logLevel: config.LOG_LEVEL,
    metricsPort: config.METRICS_PORT,
  });
  const sasl =
    config.KAFKA_SASL_USERNAME && config.KAFKA_SASL_PASSWORD
      ? { username: config.KAFKA_SASL_USERNAME, password: config.KAFKA_SASL_PASSWORD }
      : undefined;
  if (!sasl && (config.KAFKA_SASL_USERNAME || config.KAFKA_SASL_PASSWORD))
    throw new Error('KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD go together: set both or neither');
  const caller = def.caller ?? def.name;
  const privateKey = servicePrivateKeyFrom(config);
  const serviceKeys = {
    privateKey,
    publicKeys: readPublicKeys(config.SERVICE_PUBLIC_KEYS_DIR, { caller, privateKey }),
  };
  const bus = createBus(config.KAFKA_BROKERS, def.name, sasl, config.KAFKA_TOPIC_PREFIX);
  const running = await startService(def, {
    databaseUrl: config.DATABASE_URL,
    bus,
    grpcHost: config.GRPC_HOST,
    grpcPort: config.GRPC_PORT,
    logger,
    serviceKeys,
  });
  stopOnSignals(async () => {
    await running.stop();
    await bus.close();
    await metrics.stop();
  }, logger);
}
