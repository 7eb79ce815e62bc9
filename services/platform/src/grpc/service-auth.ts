// Service credentials: who is calling a service over gRPC (ADR 0008). Every call carries a
// short-lived token (a JWT signed with EdDSA: `sub` the caller, `aud` the called service) signed
// with the caller's own Ed25519 private key; the called service checks the signature against that
// caller's public key, the audience, the lifetime, and that the registry lets the caller call this
// very method. Health checks stay open for probes.
import { sign, verify, type KeyObject } from 'node:crypto';
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
import { isCallerName, mayCall, type CallerName, type ServiceName } from '../registry.js';
import { inProcessServiceKeys, publicKeysOf, type PublicKeys } from './service-keys.js';

/** The metadata entry that carries the token (removed before a handler sees the call's metadata). */
export const SERVICE_TOKEN_METADATA = 'flatlay-service-token';
const TOKEN_TTL_SECONDS = 60;
/** A caller's clock may run this far ahead of the callee's. */
const CLOCK_SKEW_SECONDS = 30;
const HEALTH_PREFIX = '/grpc.health.v1.Health/';

/** The public keys of this process tree's own callers (the embedded default, tests). */
export const inProcessPublicKeys = (): PublicKeys => publicKeysOf(inProcessServiceKeys());

/** What a caller presents: its name and the private key it signs with. */
export class ServiceCredential {
  private readonly cache = new Map<string, { token: string; renewAt: number }>();
  private readonly key: KeyObject;

  constructor(
    readonly caller: CallerName,
    privateKey?: KeyObject,
  ) {
    this.key = privateKey ?? inProcessServiceKeys()[caller].privateKey;
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

/** A service credential for `caller`, with the given private key or, without one, the process's own. */
export const serviceCredential = (caller: CallerName, privateKey?: KeyObject) =>
  new ServiceCredential(caller, privateKey);

interface ServiceTokenClaims {
  sub: string;
  aud: string;
  iat: number;
  exp: number;
}

const HEADER = Buffer.from(JSON.stringify({ alg: 'EdDSA', typ: 'JWT' })).toString('base64url');

export function signServiceToken(privateKey: KeyObject, claims: ServiceTokenClaims): string {
  const body = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${body}.${sign(null, Buffer.from(body), privateKey).toString('base64url')}`;
}

export type TokenCheck =
  | { ok: true; caller: string }
  | { ok: false; code: status.UNAUTHENTICATED | status.PERMISSION_DENIED; reason: string };

/**
 * Checks a token presented to `self` for the call `path` (`/flatlay.ledger.v1.LedgerService/Adjust`).
 * Only the one header this platform writes is accepted (no algorithm negotiation); the signature
 * must be the named caller's, by its own public key. A valid caller calling a method its edges do
 * not list is PERMISSION_DENIED: a deployment fault, not a user's.
 */
export function checkServiceToken(
  publicKeys: PublicKeys,
  self: ServiceName,
  path: string,
  token: string | undefined,
  nowMs = Date.now(),
): TokenCheck {
  const refuse = (reason: string): TokenCheck => ({ ok: false, code: status.UNAUTHENTICATED, reason });
  if (!token) return refuse('no service credential');
  const [header, payload, signature, extra] = token.split('.');
  if (header !== HEADER || !payload || !signature || extra !== undefined) return refuse('malformed service credential');
  let claims: Partial<ServiceTokenClaims>;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return refuse('malformed service credential');
  }
  // Read before the signature is checked (it names the key to check with): anything may be here.
  if (
    typeof claims !== 'object' ||
    claims === null ||
    typeof claims.sub !== 'string' ||
    typeof claims.exp !== 'number' ||
    typeof claims.iat !== 'number'
  )
    return refuse('malformed service credential');
  const keys = isCallerName(claims.sub) ? publicKeys.get(claims.sub) : undefined;
  if (!keys?.length) return refuse(`no public key for caller ${JSON.stringify(claims.sub.slice(0, 40))}`);
  // Any of the caller's keys: two only while its key is being rotated (docs/operations.md).
  const signed = Buffer.from(`${header}.${payload}`);
  const sig = Buffer.from(signature, 'base64url');
  if (!keys.some((key) => verify(null, signed, key, sig))) return refuse('bad service credential signature');
  const now = Math.floor(nowMs / 1000);
  if (claims.exp <= now || claims.iat > now + CLOCK_SKEW_SECONDS || claims.exp - claims.iat > TOKEN_TTL_SECONDS)
    return refuse('expired service credential');
  if (claims.aud !== self) return refuse('service credential for another service');
  const method = path.slice(path.lastIndexOf('/') + 1);
  if (!mayCall(claims.sub, self, method))
    return { ok: false, code: status.PERMISSION_DENIED, reason: `${claims.sub} may not call ${path}` };
  return { ok: true, caller: claims.sub };
}

/**
 * The server interceptor of service `self`: refuses a call before its handler runs unless it
 * carries a valid token from a caller the registry lets call that method; health checks pass untouched.
 */
export function serviceAuthInterceptor(
  self: ServiceName,
  publicKeys: PublicKeys,
  onRefused?: (path: string, reason: string) => void,
): ServerInterceptor {
  return (methodDescriptor, call) => {
    if (methodDescriptor.path.startsWith(HEALTH_PREFIX)) return new ServerInterceptingCall(call);
    const listener = new ServerListenerBuilder()
      .withOnReceiveMetadata((metadata: Metadata, next) => {
        const [token] = metadata.get(SERVICE_TOKEN_METADATA);
        const check = checkServiceToken(
          publicKeys,
          self,
          methodDescriptor.path,
          typeof token === 'string' ? token : undefined,
        );
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
