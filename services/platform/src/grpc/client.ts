import { credentials, Metadata, type Client, type ServiceError } from '@grpc/grpc-js';
import { HealthClient } from './health-client.js';
import { fromServiceError } from '../errors.js';
import { injectTraceHeaders } from '../telemetry.js';
import { serviceOfGrpcName } from '../registry.js';
import type { ServiceCredential } from './service-auth.js';

export type ClientConstructor<C extends Client> = (new (
  address: string,
  creds: ReturnType<typeof credentials.createInsecure>,
  options?: object,
) => C) & { serviceName?: string };

/**
 * A client of one service's API. Every call carries `credential`'s token for that service: a
 * service refuses callers that present none, or that the registry does not let call it.
 */
export function createClient<C extends Client>(
  Ctor: ClientConstructor<C>,
  address: string,
  credential: Pick<ServiceCredential, 'interceptor'>,
): C {
  const callee = serviceOfGrpcName(Ctor.serviceName ?? '');
  if (!callee) throw new Error(`no service in the registry serves ${Ctor.serviceName ?? 'this client'}`);
  return new Ctor(address, credentials.createInsecure(), {
    'grpc.max_receive_message_length': 64 * 1024 * 1024,
    // A restarted service is reached again within a second. grpc-js backs off up to 120 s between
    // attempts, growing while the service is down; meanwhile every call fails at once with
    // UNAVAILABLE (a 503 that signs the web app out) though the service already serves again.
    'grpc.initial_reconnect_backoff_ms': 250,
    'grpc.max_reconnect_backoff_ms': 1_000,
    interceptors: [credential.interceptor(callee)],
  });
}

type UnaryMethod<Req, Res> = (
  request: Req,
  metadata: Metadata,
  options: { deadline: Date },
  callback: (error: ServiceError | null, response: Res) => void,
) => unknown;

/**
 * A method may carry, under this key, a function that answers a request from what the caller
 * already holds (the gateway's cache, ADR 0510), or undefined to make the call: `call` then
 * skips building metadata and a deadline for a call it never makes.
 */
export const LOCAL_ANSWER = Symbol.for('flatlay.grpc.localAnswer');
export type LocalAnswer<Req = never, Res = unknown> = (request: Req) => Res | undefined;

/**
 * Calls a unary method with a deadline (every call has one), the trace context and any
 * identity metadata; a remote AppError comes back as the same AppError.
 */
export function call<Req, Res>(
  client: Client,
  method: UnaryMethod<Req, Res>,
  request: Req,
  options: { deadlineMs?: number; metadata?: Record<string, string> } = {},
): Promise<Res> {
  const local = (method as { [LOCAL_ANSWER]?: LocalAnswer<Req, Res> })[LOCAL_ANSWER];
  if (local) {
    const answer = local(request);
    if (answer !== undefined) return Promise.resolve(answer);
  }
  const metadata = new Metadata();
  for (const [k, v] of Object.entries({ ...injectTraceHeaders({}), ...(options.metadata ?? {}) })) metadata.set(k, v);
  const deadline = new Date(Date.now() + (options.deadlineMs ?? 5_000));
  return new Promise((ok, fail) => {
    method.call(client, request, metadata, { deadline }, (error, response) =>
      error ? fail(fromServiceError(error)) : ok(response),
    );
  });
}

export type HealthState = 'SERVING' | 'NOT_SERVING' | 'UNREACHABLE';

/** Asks a server's standard gRPC health service how it is. */
export async function checkHealth(address: string, service = '', deadlineMs = 1_000): Promise<HealthState> {
  const client = new HealthClient(address, credentials.createInsecure());
  try {
    const status = await new Promise<number | string>((ok, fail) =>
      client.check({ service }, new Metadata(), { deadline: new Date(Date.now() + deadlineMs) }, (e, r) =>
        e ? fail(e) : ok(r.status),
      ),
    );
    // The package's loader may give the enum as its name or its number.
    return status === 'SERVING' || status === 1 ? 'SERVING' : 'NOT_SERVING';
  } catch {
    return 'UNREACHABLE';
  } finally {
    client.close();
  }
}
