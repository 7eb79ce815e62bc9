// Service credentials: who is calling a service over gRPC. Every call carries a short-lived token
// (an HS256 JWT: `sub` the calling service, `aud` the called one) signed with the deployment's
// shared service secret; the called service checks the signature, the audience, the lifetime, and
// that the registry lets `sub` call it. Health checks stay open for probes.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  InterceptingCall,
  Metadata,
  ResponderBuilder,
  ServerInterceptingCall,
  ServerListenerBuilder,
  status,
  type Interceptor,
  type ServerInterceptor,
} from '@grpc/grpc-js';
import { mayCall, type CallerName, type ServiceName } from '../registry.js';

/** The metadata entry that carries the token (removed before a handler sees the call's metadata). */
export const SERVICE_TOKEN_METADATA = 'flatlay-service-token';
const TOKEN_TTL_SECONDS = 60;
/** A caller's clock may run this far ahead of the callee's. */
const CLOCK_SKEW_SECONDS = 30;
const HEALTH_PREFIX = '/grpc.health.v1.Health/';

let inProcessSecret: Buffer | undefined;

/**
 * The secret of one process tree (the embedded default, tests): generated once, never written
 * anywhere, so only code in this process can mint tokens its servers accept.
 */
export function inProcessServiceSecret(): Buffer {
  inProcessSecret ??= randomBytes(32);
  return inProcessSecret;
}

/** What a caller presents: its name and the shared secret it signs with. */
export class ServiceCredential {
  private readonly key: Buffer;
  private readonly cache = new Map<string, { token: string; renewAt: number }>();

  constructor(
    readonly caller: CallerName,
    secret: string | Buffer = inProcessServiceSecret(),
  ) {
    this.key = Buffer.from(secret);
  }

  /** A token for calls to `audience`, reused until half its lifetime has passed. */
  tokenFor(audience: ServiceName, nowMs = Date.now()): string {
    const cached = this.cache.get(audience);
    if (cached && cached.renewAt > nowMs) return cached.token;
    const iat = Math.floor(nowMs / 1000);
    const token = signServiceToken(this.key, { sub: this.caller, aud: audience, iat, exp: iat + TOKEN_TTL_SECONDS });
    this.cache.set(audience, { token, renewAt: nowMs + (TOKEN_TTL_SECONDS / 2) * 1000 });
    return token;
  }

  /** The client interceptor that attaches a token for `audience` to every call. */
  interceptor(audience: ServiceName): Interceptor {
    return (options, nextCall) =>
      new InterceptingCall(nextCall(options), {
        start: (metadata, listener, next) => {
          metadata.set(SERVICE_TOKEN_METADATA, this.tokenFor(audience));
          next(metadata, listener);
        },
      });
  }
}

/** A service credential for `caller`, from the configured secret or, without one, the process's own. */
export const serviceCredential = (caller: CallerName, secret?: string | Buffer) =>
  new ServiceCredential(caller, secret);

interface ServiceTokenClaims {
  sub: string;
  aud: string;
  iat: number;
  exp: number;
}

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
const hmac = (key: Buffer, data: string) => createHmac('sha256', key).update(data).digest();

export function signServiceToken(key: Buffer, claims: ServiceTokenClaims): string {
  const body = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${body}.${hmac(key, body).toString('base64url')}`;
}

export type TokenCheck =
  | { ok: true; caller: string }
  | { ok: false; code: status.UNAUTHENTICATED | status.PERMISSION_DENIED; reason: string };

/**
 * Checks a token presented to `self`. Only the one header this platform writes is accepted
 * (no algorithm negotiation), and the signature is compared in constant time.
 */
export function checkServiceToken(
  key: Buffer,
  self: ServiceName,
  token: string | undefined,
  nowMs = Date.now(),
): TokenCheck {
  const refuse = (reason: string): TokenCheck => ({ ok: false, code: status.UNAUTHENTICATED, reason });
  if (!token) return refuse('no service credential');
  const [header, payload, signature, extra] = token.split('.');
  if (header !== HEADER || !payload || !signature || extra !== undefined) return refuse('malformed service credential');
  const expected = hmac(key, `${header}.${payload}`);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return refuse('bad service credential signature');
  let claims: Partial<ServiceTokenClaims>;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return refuse('malformed service credential');
  }
  const now = Math.floor(nowMs / 1000);
  if (typeof claims.sub !== 'string' || typeof claims.exp !== 'number' || typeof claims.iat !== 'number')
    return refuse('malformed service credential');
  if (claims.exp <= now || claims.iat > now + CLOCK_SKEW_SECONDS || claims.exp - claims.iat > TOKEN_TTL_SECONDS)
    return refuse('expired service credential');
  if (claims.aud !== self) return refuse('service credential for another service');
  if (!mayCall(claims.sub, self))
    return { ok: false, code: status.PERMISSION_DENIED, reason: `${claims.sub} may not call ${self}` };
  return { ok: true, caller: claims.sub };
}

/**
 * The server interceptor of service `self`: refuses a call before its handler runs unless it
 * carries a valid token from a caller the registry allows; health checks pass untouched.
 */
export function serviceAuthInterceptor(
  self: ServiceName,
  secret: string | Buffer,
  onRefused?: (path: string, reason: string) => void,
): ServerInterceptor {
  const key = Buffer.from(secret);
  return (methodDescriptor, call) => {
    if (methodDescriptor.path.startsWith(HEALTH_PREFIX)) return new ServerInterceptingCall(call);
    const listener = new ServerListenerBuilder()
      .withOnReceiveMetadata((metadata: Metadata, next) => {
        const [token] = metadata.get(SERVICE_TOKEN_METADATA);
        const check = checkServiceToken(key, self, typeof token === 'string' ? token : undefined);
        if (!check.ok) {
          onRefused?.(methodDescriptor.path, check.reason);
          // No flatlay-error-code: to the caller this is a deployment fault, never a user's 401.
          call.sendStatus({ code: check.code, details: check.reason, metadata: new Metadata() });
          return;
        }
        metadata.remove(SERVICE_TOKEN_METADATA);
        next(metadata);
      })
      .build();
    return new ServerInterceptingCall(call, new ResponderBuilder().withStart((next) => next(listener)).build());
  };
}
