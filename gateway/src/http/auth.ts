import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { Passport } from 'passport';
import { Strategy as BearerStrategy } from 'passport-http-bearer';
import { AppError, call } from '@flatlay/platform';
import type { ServiceClients } from '../clients.js';
import { GatewayAuthRefusal } from './errors.js';

/** Who a verified access token says the caller is. */
export interface Caller {
  userId: string;
  role: 'user' | 'admin';
  tokenId: string;
  /** The raw bearer token (logout revokes it). */
  token: string;
}

declare module 'express-serve-static-core' {
  interface Request {
    caller?: Caller;
    /** Why the identity service refused the bearer token (passport-http-bearer keeps only a challenge). */
    authRefusal?: string;
    /** Set once the admin guard let the request through (see the error mapping's rule for admin routes). */
    adminVerified?: boolean;
  }
}

export const NO_TOKEN = 'Not authenticated: Authentication required';
export const ADMIN_REQUIRED = 'Admin authentication required';

/**
 * passport-http-bearer also takes `access_token` from the query string and the body. A token in a
 * URL ends up in access logs, proxy logs and the browser history, and one in a form body can be
 * planted by another site; so only the Authorization header is read: the strategy sees the
 * request without its query and body.
 */
class AuthorizationHeaderBearer extends BearerStrategy<
  (req: Request, token: string, done: (error: unknown, user?: Caller | false) => void) => void
> {
  override authenticate(req: Request, options?: object): void {
    const headerOnly = new Proxy(req, {
      get: (target, key) => (key === 'query' || key === 'body' ? undefined : Reflect.get(target, key, target)),
    });
    super.authenticate(headerOnly, options);
  }
}

/**
 * Passport with one bearer strategy: the token is checked by the identity service (signature,
 * issuer, audience, expiry, revocation, and that the user still exists), so every instance
 * sees a logout or a deleted account at once.
 */
export function createAuthenticator(clients: ServiceClients) {
  const passport = new Passport();
  passport.use(
    new AuthorizationHeaderBearer(
      { passReqToCallback: true },
      (req: Request, token: string, done: (error: unknown, user?: Caller | false) => void) => {
        const client = clients.identity();
        call(client, client.verifyToken, { token }, { deadlineMs: 3_000 }).then(
          (v) =>
            done(null, { userId: v.userId, role: v.role === 'admin' ? 'admin' : 'user', tokenId: v.tokenId, token }),
          (error: unknown) => {
            if (!(error instanceof AppError && error.code === 'UNAUTHENTICATED')) return done(error);
            req.authRefusal = error.message;
            done(null, false);
          },
        );
      },
    ),
  );

  /** Authenticates the bearer token; `required` decides whether a missing one is refused. */
  const authenticate =
    (required: boolean): RequestHandler =>
    (req: Request, res: Response, next: NextFunction) => {
      passport.authenticate('bearer', { session: false }, (error: unknown, caller: Caller | false) => {
        if (error) return next(error);
        if (caller) {
          req.caller = caller;
          return next();
        }
        const sent = Boolean(req.headers.authorization);
        if (!sent && !required) return next();
        const message =
          req.authRefusal ?? (sent ? 'Not authenticated: the authorization header is not a bearer token' : NO_TOKEN);
        res.setHeader('WWW-Authenticate', 'Bearer');
        next(new GatewayAuthRefusal('UNAUTHENTICATED', message));
      })(req, res, next);
    };

  const requireUser = authenticate(true);
  const requireAdmin: RequestHandler = (req, res, next) =>
    requireUser(req, res, (error?: unknown) => {
      if (error) return next(error);
      if (req.caller?.role !== 'admin') return next(new GatewayAuthRefusal('PERMISSION_DENIED', ADMIN_REQUIRED));
      req.adminVerified = true;
      next();
    });
  return { passport, requireUser, requireAdmin, optionalUser: authenticate(false) };
}

export type Authenticator = ReturnType<typeof createAuthenticator>;

/** The verified identity, passed to services in gRPC metadata. */
export function callerMetadata(req: Request): Record<string, string> {
  if (!req.caller) return {};
  return {
    'x-flatlay-user-id': req.caller.userId,
    'x-flatlay-user-role': req.caller.role,
    'x-request-id': String(req.headers['x-request-id'] ?? ''),
  };
}

/** The caller set by requireUser/requireAdmin (a route without them is a programming error). */
export function callerOf(req: Request): Caller {
  if (!req.caller) throw new GatewayAuthRefusal('UNAUTHENTICATED', NO_TOKEN);
  return req.caller;
}
