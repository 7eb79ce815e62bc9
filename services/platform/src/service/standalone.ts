import { z } from 'zod';
import { env, loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { startTelemetry } from '../telemetry.js';
import { registry } from '../registry.js';
import { createBus } from './bus-config.js';
import { startService, stopOnSignals, type ServiceContext, type ServiceDefinition } from './runtime.js';

/** SERVICE_AUTH_SECRET: at least 32 characters (a random value, e.g. `openssl rand -base64 48`). */
export const serviceSecretEnv = () => z.string().min(32, 'must be at least 32 characters');

/** Configuration every service process reads (a service adds its own on top). */
export const serviceEnvSchema = z.object({
  DATABASE_URL: env.url(),
  KAFKA_BROKERS: env.csv().optional(),
  // This service's own Kafka user (SCRAM-SHA-512): both or neither.
  KAFKA_SASL_USERNAME: z.string().min(1).optional(),
  KAFKA_SASL_PASSWORD: z.string().min(1).optional(),
  GRPC_HOST: z.string().default('0.0.0.0'),
  GRPC_PORT: env.port(50051),
  LOG_LEVEL: env.logLevel(),
  // Shared by every service and the gateway of one deployment: it signs and checks the service
  // credentials of internal gRPC calls.
  SERVICE_AUTH_SECRET: serviceSecretEnv(),
});

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
  startTelemetry(def.name);
  const logger = createLogger(def.name, config.LOG_LEVEL);
  const sasl =
    config.KAFKA_SASL_USERNAME && config.KAFKA_SASL_PASSWORD
      ? { username: config.KAFKA_SASL_USERNAME, password: config.KAFKA_SASL_PASSWORD }
      : undefined;
  if (!sasl && (config.KAFKA_SASL_USERNAME || config.KAFKA_SASL_PASSWORD))
    throw new Error('KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD go together: set both or neither');
  const bus = createBus(config.KAFKA_BROKERS, def.name, sasl);
  const running = await startService(def, {
    databaseUrl: config.DATABASE_URL,
    bus,
    grpcHost: config.GRPC_HOST,
    grpcPort: config.GRPC_PORT,
    logger,
    serviceSecret: config.SERVICE_AUTH_SECRET,
  });
  stopOnSignals(async () => {
    await running.stop();
    await bus.close();
  }, logger);
}
