import { z } from 'zod';
import { env, loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { startTelemetry } from '../telemetry.js';
import { createBus } from './bus-config.js';
import { startService, stopOnSignals, type ServiceContext, type ServiceDefinition } from './runtime.js';

/** Configuration every service process reads (a service adds its own on top). */
export const serviceEnvSchema = z.object({
  DATABASE_URL: env.url(),
  KAFKA_BROKERS: env.csv().optional(),
  GRPC_HOST: z.string().default('0.0.0.0'),
  GRPC_PORT: env.port(50051),
  LOG_LEVEL: env.logLevel(),
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
export async function runStandalone(def: ServiceDefinition, defaultPort: number): Promise<void> {
  const config = loadConfig(serviceEnvSchema.extend({ GRPC_PORT: env.port(defaultPort) }));
  startTelemetry(def.name);
  const logger = createLogger(def.name, config.LOG_LEVEL);
  const bus = createBus(config.KAFKA_BROKERS, def.name);
  const running = await startService(def, { databaseUrl: config.DATABASE_URL, bus, grpcHost: config.GRPC_HOST, grpcPort: config.GRPC_PORT, logger });
  stopOnSignals(async () => {
    await running.stop();
    await bus.close();
  }, logger);
}
