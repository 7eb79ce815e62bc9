// The service clients the gateway's routes and authenticator use, with the hot reads served from
// what this instance remembers (ADR 0510): identity's VerifyToken and GetProfile, the ledger's
// GetBalance. The routes do not change: each client keeps its interface, and a call that
// changes something drops what it may have made stale, here at once and on every other
// instance through the broadcast, before its answer goes back to the route.
import type { Metadata } from '@grpc/grpc-js';
import { fromServiceError, LOCAL_ANSWER } from '@flatlay/platform';
import type { analytics, billing, identity, image, ledger } from '@flatlay/proto';
import type { ServiceClients } from '../clients.js';
import type { Broadcast } from './invalidations.js';
import type { Known, Scope, Stamp, UserFactsCache } from './user-facts.js';

type Callback = (error: unknown, response?: unknown) => void;
type Request = Record<string, unknown>;
/** One unary method, given the request, its metadata, where its answer goes and how to call the service. */
type Hook = (
  request: Request,
  metadata: Metadata | undefined,
  done: Callback,
  callService: (cb: Callback) => void,
) => void;

/** A read served from the cache: its hook, and its answer without any call when one is remembered. */
interface CachedRead {
  hook: Hook;
  local: (request: Request) => unknown;
}

/**
 * What each RPC does to the facts this cache keeps, written out per method: `cached` (served from
 * the cache), `reads` (touches nothing cached), `user` (may change a user's session, profile or
 * plan: identity's writes drop all that user's facts) or `balance` (may change a user's balance:
 * drops the balance of the user it names or acts for). `satisfies` makes it exhaustive: a new RPC
 * fails the build here until someone says what it changes.
 */
type Effect = 'cached' | 'reads' | 'user' | 'balance';
type Effects<Service> = Record<keyof Service, Effect>;
const RPC_EFFECTS = {
  identity: {
    getServiceStatus: 'reads',
    register: 'reads', // a new user has nothing cached yet
    login: 'reads',
    adminLogin: 'reads',
    verifyToken: 'cached',
    getProfile: 'cached',
    // External sign-ins may end a taken-over account's sessions; logout and deletion end them.
    loginWithGoogle: 'user',
    loginWithSupabase: 'user',
    revokeToken: 'user',
    deleteUser: 'user',
    // Account e-mail: asking for a message changes nothing; using a link changes the profile
    // (verified, new address) or ends sessions (reset, change); a link's token names its user.
    requestEmailVerification: 'reads',
    requestPasswordReset: 'reads',
    requestEmailChange: 'reads',
    verifyEmail: 'user',
    resetPassword: 'user',
    changePassword: 'user',
    confirmEmailChange: 'user',
    deleteOwnAccount: 'user',
    // Data exports: a request row and, once made, an e-mail; nothing cached changes.
    requestDataExport: 'reads',
    claimDataExport: 'reads',
    completeDataExport: 'reads',
    listExpiredDataExports: 'reads',
    markDataExportsSwept: 'reads',
  } satisfies Effects<typeof identity.IdentityServiceService>,
  ledger: {
    getServiceStatus: 'reads',
    getBalance: 'cached',
    listTransactions: 'reads',
    openAccount: 'balance',
    spend: 'balance',
    refund: 'balance',
    credit: 'balance',
    grantPlan: 'balance',
    adjust: 'balance',
  } satisfies Effects<typeof ledger.LedgerServiceService>,
  // The image service spends and refunds through the ledger on the user's behalf.
  image: {
    getServiceStatus: 'reads',
    getStatus: 'reads',
    listImages: 'reads',
    getAnonymousStatus: 'reads',
    listUnpaidRefunds: 'reads',
    countUnfinishedGuestTries: 'reads',
    getGenerationOptions: 'reads',
    createGeneration: 'balance',
    unlockWithTokens: 'balance',
    claimAnonymous: 'balance',
    markPaid: 'balance',
  } satisfies Effects<typeof image.ImageServiceService>,
  // Billing's credits reach the ledger as events (whose invalidations follow); its calls that
  // start or finish a payment drop the caller's balance at once as well.
  billing: {
    getServiceStatus: 'reads',
    listProducts: 'reads',
    getAnonymousPayment: 'reads',
    getSubscription: 'reads',
    getStripeConfig: 'reads',
    listPayments: 'reads',
    createCheckoutSession: 'balance',
    createAnonymousPayment: 'balance',
    createImageUnlockCheckout: 'balance',
    cancelSubscription: 'balance',
    setComplimentaryPlan: 'balance',
    createPortalSession: 'balance',
    handleWebhook: 'balance',
    renderLocalCheckout: 'balance',
    submitLocalCheckout: 'balance',
    renderLocalPortal: 'balance',
    submitLocalPortal: 'balance',
  } satisfies Effects<typeof billing.BillingServiceService>,
  analytics: {
    getServiceStatus: 'reads',
    listUsers: 'reads',
    findUser: 'reads',
    getSignupStats: 'reads',
    getPaidUserStats: 'reads',
    getSignupTrend: 'reads',
    getOverview: 'reads',
    getKeyStatuses: 'reads',
    getSettingsConfig: 'reads',
    listDeadLetters: 'reads',
    saveSettings: 'balance',
    testConnection: 'balance',
    replayDeadLetters: 'balance',
    discardDeadLetters: 'balance',
  } satisfies Effects<typeof analytics.AnalyticsServiceService>,
};

/** The effect of `method` of `service`; undefined for the client's own methods (close, waitForReady). */
function effectOf(service: string, method: string): Effect | undefined {
  const table = (RPC_EFFECTS as Record<string, Record<string, Effect>>)[service];
  return table && Object.hasOwn(table, method) ? table[method] : undefined;
}

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

  /**
   * Fills in flight, by fact: a request that misses joins the fill under way for the same fact
   * when nothing was invalidated since it started (its answer is then as new as one this request
   * would get), so a fact that runs out under load is asked for once, not once per request.
   */
  const inFlight = new Map<string, { stamp: Stamp; waiters: Callback[] }>();
  /**
   * A cached read: the remembered answer; in the last quarter of its TTL also one refresh in the
   * background (this request's own call, not waited for); else one fill shared by the requests
   * that miss at once. `refused` sees a fill's error (a background refresh has no one to tell).
   */
  const read = (
    keyOf: (request: Request) => string,
    known: (request: Request) => Known<unknown> | undefined,
    store: (stamp: Stamp, request: Request, response: unknown) => void,
    refused?: (request: Request, error: unknown) => void,
  ): CachedRead => {
    const hook: Hook = (request, _metadata, done, callService) => {
      if (!cache.isLive) return callService(done);
      const hit = known(request);
      if (hit && !hit.refreshDue) return done(null, hit.value);
      const key = keyOf(request);
      const current = inFlight.get(key);
      if (hit) {
        done(null, hit.value);
        if (current) return;
      } else if (current && current.stamp === cache.stamp()) {
        current.waiters.push(done);
        return;
      }
      const fill = { stamp: cache.stamp(), waiters: hit ? [] : [done] };
      inFlight.set(key, fill);
      callService((error, response) => {
        if (inFlight.get(key) === fill) inFlight.delete(key);
        if (!error && response) store(fill.stamp, request, response);
        else if (error) refused?.(request, error);
        for (const waiter of fill.waiters) waiter(error, response);
      });
    };
    // For `call`: the remembered answer when no call is needed at all (no metadata built).
    const local = (request: Request) => {
      if (!cache.isLive) return undefined;
      const hit = known(request);
      return hit && !hit.refreshDue ? hit.value : undefined;
    };
    return { hook, local };
  };

  const identityHooks = (name: string): Hook | CachedRead | undefined => {
    if (name === 'verifyToken')
      return read(
        (request) => `session:${String(request.token ?? '')}`,
        (request) => cache.knownSession(String(request.token ?? '')),
        (stamp, request, response) => {
          const r = response as { userId?: string; expiresAt?: Date };
          if (r.userId) cache.rememberSession(stamp, String(request.token ?? ''), r.userId, r, r.expiresAt?.getTime());
        },
        // Asked again, identity refused the token: forget it now rather than at its TTL.
        (request, error) => {
          if (fromServiceError(error).code === 'UNAUTHENTICATED') cache.forgetSession(String(request.token ?? ''));
        },
      );
    if (name === 'getProfile')
      return read(
        (request) => `profile:${String(request.userId ?? '')}`,
        (request) => cache.knownProfile(String(request.userId ?? '')),
        (stamp, request, response) => {
          const periodEnd = (response as { user?: { subscriptionPeriodEnd?: Date } }).user?.subscriptionPeriodEnd;
          const changesAt = periodEnd && periodEnd.getTime() > Date.now() ? periodEnd.getTime() : undefined;
          cache.rememberProfile(stamp, String(request.userId ?? ''), response, changesAt);
        },
      );
    if (effectOf('identity', name) !== 'user') return undefined;
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

  const ledgerHooks = (name: string): Hook | CachedRead | undefined => {
    if (name === 'getBalance')
      return read(
        (request) => `balance:${String(request.userId ?? '')}`,
        (request) => cache.knownBalance(String(request.userId ?? '')),
        (stamp, request, response) => cache.rememberBalance(stamp, String(request.userId ?? ''), response),
      );
    if (effectOf('ledger', name) !== 'balance') return undefined;
    return afterWrite((request) => (text(request.userId) ? [text(request.userId)!] : 'everyone'), 'balance');
  };

  // Any other service: a write on behalf of a user (a generation spends tokens through the image
  // service) makes that user's balance stale.
  const otherHooks =
    (service: string) =>
    (name: string): Hook | undefined =>
      effectOf(service, name) !== 'balance'
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
    const hooks = name === 'identity' ? identityHooks : name === 'ledger' ? ledgerHooks : otherHooks(name);
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
function decorate<C extends object>(client: C, hookFor: (name: string) => Hook | CachedRead | undefined): C {
  const methods = new Map<string, unknown>();
  return new Proxy(client, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function' || typeof key !== 'string') return value;
      let method = methods.get(key);
      if (!method) {
        const found = hookFor(key);
        const hook = typeof found === 'function' ? found : found?.hook;
        const real = (...args: unknown[]) => (value as (...a: unknown[]) => unknown).apply(target, args);
        method = hook
          ? (...args: unknown[]) => {
              // Streams and other shapes go straight to the service.
              if (args.length !== 4 || typeof args[3] !== 'function') return real(...args);
              const [request, metadata, options] = args as [Request, Metadata, unknown];
              hook(request, metadata, args[3] as Callback, (cb) => real(request, metadata, options, cb));
            }
          : real;
        if (found && typeof found !== 'function') Object.defineProperty(method, LOCAL_ANSWER, { value: found.local });
        methods.set(key, method);
      }
      return method;
    },
  });
}
