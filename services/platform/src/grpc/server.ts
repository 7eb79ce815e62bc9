import {
  Server,
  ServerCredentials,
  type ServiceDefinition,
  type UntypedServiceImplementation,
  type handleUnaryCall,
} from '@grpc/grpc-js';
import { HealthImplementation, type ServingStatusMap } from 'grpc-health-check';
import { toServiceError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { ServiceName } from '../registry.js';
import { grpcMetricsInterceptor } from './server-metrics.js';
import { serviceAuthInterceptor } from './service-auth.js';
import type { PublicKeys } from './service-keys.js';

export interface GrpcService {
  /** Fully qualified service name, e.g. flatlay.ledger.v1.LedgerService (used by health checks). */
  name: string;
  definition: ServiceDefinition;
  implementation: UntypedServiceImplementation;
}

/**
 * Adapts an async function to a unary gRPC handler: AppErrors become the mapped status with
 * their code in metadata; anything else becomes INTERNAL and is logged, never sent.
 */
export function unary<Req, Res>(
  logger: Logger,
  fn: (request: Req, metadata: Record<string, string>) => Promise<Res>,
): handleUnaryCall<Req, Res> {
  return (call, callback) => {
    const metadata: Record<string, string> = {};
    for (const [k, v] of Object.entries(call.metadata.getMap())) metadata[k] = v.toString();
    fn(call.request, metadata).then(
      (response) => callback(null, response),
      (error: unknown) => {
        const serviceError = toServiceError(error);
        if (serviceError.code === 13)
          logger.error({ err: error, method: call.getPath() }, 'unexpected error in gRPC handler');
        callback(serviceError);
      },
    );
  };
}

/** Who this server is, and the public keys its callers' tokens must be signed for. */
export interface GrpcServerAuth {
  service: ServiceName;
  publicKeys: PublicKeys;
  logger?: Logger;
}

export class GrpcServer {
  private readonly server: Server;
  private readonly health: HealthImplementation;
  private readonly names: string[];

  constructor(services: GrpcService[], auth: GrpcServerAuth) {
    const refused = (path: string, reason: string) =>
      auth.logger?.warn({ method: path, reason }, 'refused a gRPC call without a valid service credential');
    this.server = new Server({
      'grpc.max_receive_message_length': 64 * 1024 * 1024,
      // The first wraps the call innermost: the metrics see every status, refusals included.
      interceptors: [grpcMetricsInterceptor, serviceAuthInterceptor(auth.service, auth.publicKeys, refused)],
    });
    this.names = services.map((s) => s.name);
    const initial: ServingStatusMap = { '': 'NOT_SERVING' };
    for (const name of this.names) initial[name] = 'NOT_SERVING';
    this.health = new HealthImplementation(initial);
    this.health.addToServer(this.server);
    for (const s of services) this.server.addService(s.definition, s.implementation);
  }

  /** Binds to host:port (port 0 picks a free one) and returns the bound port. */
  listen(host: string, port: number): Promise<number> {
    return new Promise((ok, fail) =>
      this.server.bindAsync(`${host}:${port}`, ServerCredentials.createInsecure(), (error, bound) =>
        error ? fail(error) : ok(bound),
      ),
    );
  }

  setServing(serving: boolean): void {
    const status = serving ? 'SERVING' : 'NOT_SERVING';
    this.health.setStatus('', status);
    for (const name of this.names) this.health.setStatus(name, status);
  }

  /** Stops taking calls, lets calls in flight finish within the grace period, then forces. */
  shutdown(graceMs = 10_000): Promise<void> {
    this.setServing(false);
    return new Promise((ok) => {
      const force = setTimeout(() => {
        this.server.forceShutdown();
        ok();
      }, graceMs);
      this.server.tryShutdown(() => {
        clearTimeout(force);
        ok();
      });
    });
  }
}
