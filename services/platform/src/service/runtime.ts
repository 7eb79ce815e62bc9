import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import type { Bus, TopicSpec } from '../bus/bus.js';
import { createPool, ensureDatabase } from '../db/pool.js';
import { runMigrations, type MigrationSource } from '../db/migrations.js';
import { trackOutbox } from '../events/outbox-metrics.js';
import { OutboxRelay } from '../events/relay.js';
import { GrpcServer, type GrpcService } from '../grpc/server.js';
import { inProcessPublicKeys, ServiceCredential } from '../grpc/service-auth.js';
import type { ServiceKeys } from '../grpc/service-keys.js';
import { createLogger, type Logger } from '../logger.js';
import type { CallerName, ServiceName } from '../registry.js';

export const platformMigrations: MigrationSource = {
  name: 'platform',
  dir: fileURLToPath(new URL('../../migrations', import.meta.url)),
};

export interface ServiceContext {
  name: ServiceName;
  version: string;
  instanceId: string;
  startedAt: Date;
  logger: Logger;
  pool: pg.Pool;
  bus: Bus;
  /** Number of migrations applied to this service's database. */
  schemaVersion: number;
  /** What this service presents when it calls another (createClient's third argument). */
  credential: ServiceCredential;
  /**
   * Whether its service keys were generated in memory for this process tree (the embedded
   * default, tests): then other secrets that only this tree shares may be generated the same way;
   * otherwise each must be configured.
   */
  inProcessKeys: boolean;
}

export interface ServiceDefinition {
  name: ServiceName;
  /** Whom its credential names when it calls another service; default `name` (the generation worker: `image-worker`). */
  caller?: CallerName;
  version?: string;
  /** This service's own migrations (the platform's tables are applied first). */
  migrationsDir: string;
  /** Topics this service publishes to or consumes from; created when missing. */
  topics?: TopicSpec[];
  /** Builds the gRPC services once the database and bus are ready. */
  grpc(ctx: ServiceContext): GrpcService[];
  /** Starts consumers and background work; returns what to stop on shutdown. */
  start?(ctx: ServiceContext): Promise<Array<() => Promise<void>>>;
}

export interface RuntimeOptions {
  /** Server URL; the service uses its own database `flatlay_<name>` on it. */
  databaseUrl: string;
  /** Another database name than `flatlay_<name>` (tests that must not share rows with other runs). */
  database?: string;
  bus: Bus;
  grpcHost?: string;
  grpcPort: number;
  /**
   * Publish the whole outbox again at start. The in-process bus keeps its log in memory, so
   * after a restart consumers catch up from the outbox; their inboxes drop what they had.
   */
  replayOutboxOnStart?: boolean;
  logger?: Logger;
  /**
   * This service's private key and its callers' public keys (SERVICE_PRIVATE_KEY,
   * SERVICE_PUBLIC_KEYS_DIR). Absent: the key pairs generated in memory for this process tree,
   * which only callers in it hold.
   */
  serviceKeys?: ServiceKeys;
}

export interface RunningService {
  name: string;
  port: number;
  context: ServiceContext;
  stop(): Promise<void>;
}

/**
 * The one way a service starts: its database, migrations, topics, gRPC server with health,
 * outbox relay and consumers; and the reverse order on stop.
 */
export async function startService(def: ServiceDefinition, options: RuntimeOptions): Promise<RunningService> {
  const logger = options.logger ?? createLogger(def.name);
  const url = await ensureDatabase(options.databaseUrl, options.database ?? `flatlay_${def.name}`);
  const pool = createPool(url);
  const stops: Array<() => Promise<void>> = [];
  try {
    const schemaVersion = await runMigrations(pool, [platformMigrations, { name: def.name, dir: def.migrationsDir }]);
    if (def.topics?.length) await options.bus.ensureTopics(def.topics);
    if (options.replayOutboxOnStart)
      await pool.query('DELETE FROM checkpoints WHERE reader = $1', [`outbox-relay:${def.name}`]);
    const ctx: ServiceContext = {
      name: def.name,
      version: def.version ?? '0.1.0',
      instanceId: randomUUID(),
      startedAt: new Date(),
      logger,
      pool,
      bus: options.bus,
      schemaVersion,
      credential: new ServiceCredential(def.caller ?? def.name, options.serviceKeys?.privateKey),
      inProcessKeys: options.serviceKeys === undefined,
    };
    const relay = new OutboxRelay({ pool, bus: options.bus, name: `outbox-relay:${def.name}`, logger });
    relay.start();
    stops.push(() => relay.stop());
    const untrackOutbox = trackOutbox(def.name, pool, `outbox-relay:${def.name}`);
    stops.push(async () => untrackOutbox());
    if (def.start) stops.push(...(await def.start(ctx)));
    const server = new GrpcServer(def.grpc(ctx), {
      service: def.name,
      publicKeys: options.serviceKeys?.publicKeys ?? inProcessPublicKeys(),
      logger,
    });
    const port = await server.listen(options.grpcHost ?? '127.0.0.1', options.grpcPort);
    server.setServing(true);
    stops.push(() => server.shutdown());
    logger.info({ port, schemaVersion }, `${def.name} service ready`);
    return {
      name: def.name,
      port,
      context: ctx,
      async stop() {
        for (const stop of stops.reverse()) await stop().catch((err) => logger.warn({ err }, 'error while stopping'));
        await pool.end();
        logger.info(`${def.name} service stopped`);
      },
    };
  } catch (error) {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    await pool.end();
    throw error;
  }
}

/** Stops `stop` once on SIGTERM or SIGINT, then exits; a second signal exits at once. */
export function stopOnSignals(stop: () => Promise<void>, logger: Logger): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'stopping');
    stop().then(
      () => process.exit(0),
      (err) => {
        logger.error({ err }, 'failed to stop cleanly');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', handler);
  process.once('SIGINT', handler);
}
