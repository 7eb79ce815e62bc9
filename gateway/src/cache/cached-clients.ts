// The service clients the gateway's routes and authenticator use, with the hot reads served from
// what this instance remembers (ADR 0510): identity's VerifyToken and GetProfile, the ledger's
// GetBalance. The routes do not change: each client keeps its interface, and a call that
// changes something drops what it may have made stale, here at once and on every other
// instance through the broadcast, before its answer goes back to the route.
import type { Metadata } from '@grpc/grpc-js';
import type { ServiceClients } from '../clients.js';
import type { Broadcast } from './invalidations.js';
import type { Scope, UserFactsCache } from './user-facts.js';

type Callback = (error: unknown, response?: unknown) => void;
type Request = Record<string, unknown>;
/** One unary method, given the request, its metadata, where its answer goes and how to call the service. */
type Hook = (
  request: Request,
  metadata: Metadata | undefined,
  done: Callback,
  callService: (cb: Callback) => void,
) => void;

/** Identity methods that change nothing a cached fact depends on; every other one invalidates. */
const IDENTITY_READS = new Set(['verifyToken', 'getProfile', 'getServiceStatus', 'login', 'register', 'adminLogin']);
/** A method of any other service whose name says it only reads. */
const READ_NAME = /^(get|list|search|watch|stream|check|verify|count|export)/;

const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

/**
 * The user a token names (a logout carries only the token), read without checking the
 * signature: it only picks whose facts to drop, and dropping anyone's costs a verification.
 */
function subjectOf(token: unknown): string | undefined {
  if (typeof token !== 'string') return undefined;
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { sub?: unknown };
    return text(payload.sub);
  } catch {
    return undefined;
  }
}

export function cachedClients(clients: ServiceClients, cache: UserFactsCache, broadcast: Broadcast): ServiceClients {
  /** After a change: forget here at once, then tell the others before the route answers. */
  const changed = async (users: string[] | 'everyone', scope: Scope) => {
    if (users === 'everyone') cache.invalidateEveryone();
    else for (const u of users) cache.invalidate(u, scope);
    await broadcast(users, scope);
  };
  const afterWrite =
    (
      usersOf: (request: Request, response: unknown, metadata: Metadata | undefined) => string[] | 'everyone' | [],
      scope: Scope,
    ): Hook =>
    (request, metadata, done, callService) =>
      // Also after an error: a call that timed out may still have been applied.
      callService((error, response) => {
        const users = usersOf(request, response, metadata);
        if (Array.isArray(users) && users.length === 0) return done(error, response);
        changed(users, scope).then(() => done(error, response));
      });

  const identityHooks = (name: string): Hook | undefined => {
    if (name === 'verifyToken')
      return (request, _metadata, done, callService) => {
        const token = String(request.token ?? '');
        const known = cache.isLive ? cache.session(token) : undefined;
        if (known) return done(null, known);
        const stamp = cache.stamp();
        callService((error, response) => {
          const r = response as { userId?: string; expiresAt?: Date } | undefined;
          if (!error && r?.userId) cache.rememberSession(stamp, token, r.userId, r, r.expiresAt?.getTime());
          done(error, response);
        });
      };
    if (name === 'getProfile')
      return (request, _metadata, done, callService) => {
        const userId = String(request.userId ?? '');
        const known = cache.isLive ? cache.profile(userId) : undefined;
        if (known) return done(null, known);
        const stamp = cache.stamp();
        callService((error, response) => {
          const periodEnd = (response as { user?: { subscriptionPeriodEnd?: Date } } | undefined)?.user
            ?.subscriptionPeriodEnd;
          const changesAt = periodEnd && periodEnd.getTime() > Date.now() ? periodEnd.getTime() : undefined;
          if (!error && response) cache.rememberProfile(stamp, userId, response, changesAt);
          done(error, response);
        });
      };
    if (IDENTITY_READS.has(name)) return undefined;
    // Logout, deletion, password or profile changes, external sign-ins (which may end a taken-over
    // account's sessions): the user named by the request or the answer, else everyone.
    return afterWrite((request, response) => {
      const r = response as { userId?: string; user?: { id?: string } } | undefined;
      const users = [text(request.userId), text(r?.userId), text(r?.user?.id), subjectOf(request.token)].filter(
        (u): u is string => !!u,
      );
      return users.length ? [...new Set(users)] : 'everyone';
    }, 'all');
  };

  const ledgerHooks = (name: string): Hook | undefined => {
    if (name === 'getBalance')
      return (request, _metadata, done, callService) => {
        const userId = String(request.userId ?? '');
        const known = cache.isLive ? cache.balance(userId) : undefined;
        if (known) return done(null, known);
        const stamp = cache.stamp();
        callService((error, response) => {
          if (!error && response) cache.rememberBalance(stamp, userId, response);
          done(error, response);
        });
      };
    if (READ_NAME.test(name)) return undefined;
    return afterWrite((request) => (text(request.userId) ? [text(request.userId)!] : 'everyone'), 'balance');
  };

  // Any other service: a write on behalf of a user (a generation spends tokens through the image
  // service) makes that user's balance stale.
  const otherHooks = (name: string): Hook | undefined =>
    READ_NAME.test(name)
      ? undefined
      : afterWrite((request, _response, metadata) => {
          const caller = metadata?.get('x-flatlay-user-id')[0];
          return [...new Set([text(caller), text(request.userId)].filter((u): u is string => !!u))];
        }, 'balance');

  const wrapped: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(clients)) {
    if (typeof member !== 'function' || name === 'close') {
      wrapped[name] = typeof member === 'function' ? member.bind(clients) : member;
      continue;
    }
    const hooks = name === 'identity' ? identityHooks : name === 'ledger' ? ledgerHooks : otherHooks;
    let last: { raw: object; decorated: object } | undefined;
    wrapped[name] = () => {
      const raw = (member as () => object).call(clients);
      if (last?.raw !== raw) last = { raw, decorated: decorate(raw, hooks) };
      return last.decorated;
    };
  }
  return wrapped as unknown as ServiceClients;
}

/** The client with its unary methods (request, metadata, options, callback) passed through their hooks. */
function decorate<C extends object>(client: C, hookFor: (name: string) => Hook | undefined): C {
  const methods = new Map<string, unknown>();
  return new Proxy(client, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function' || typeof key !== 'string') return value;
      let method = methods.get(key);
      if (!method) {
        const hook = hookFor(key);
        const real = (...args: unknown[]) => (value as (...a: unknown[]) => unknown).apply(target, args);
        method = hook
          ? (...args: unknown[]) => {
              // Streams and other shapes go straight to the service.
              if (args.length !== 4 || typeof args[3] !== 'function') return real(...args);
              const [request, metadata, options] = args as [Request, Metadata, unknown];
              hook(request, metadata, args[3] as Callback, (cb) => real(request, metadata, options, cb));
            }
          : real;
        methods.set(key, method);
      }
      return method;
    },
  });
}
