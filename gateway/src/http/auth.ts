import type { NextFunction, Request, RequestHandler, Response } from 'express';
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
    /** Why the identity service refused the bearer token. */
    authRefusal?: string;
    /** Set once the admin guard let the request through (see the error mapping's rule for admin routes). */
    adminVerified?: boolean;
  }
}

export const NO_TOKEN = 'Not authenticated: Authentication required';
export const ADMIN_REQUIRED = 'Admin authentication required';

/**
 * The bearer token of the Authorization header, as RFC 6750 sends it ("Bearer <token>", the
 * scheme in any case); undefined for any other header. Only the header is read: a token in the
 * query string ends up in access logs, proxy logs and the browser history, and one in a form
 * body can be planted by another site.
 */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const parts = header.split(' ');
  if (parts.length !== 2 || !/^Bearer$/i.test(parts[0]!)) return undefined;
  return parts[1] || undefined;
}

/**
 * Checks the bearer token with the identity service's VerifyToken (signature, issuer, audience,
 * expiry, revocation, and that the user still exists), through the clients the gateway was given:
 * with the gateway cache (ADR 0510) a token identity has verified is remembered until a logout,
 * a deletion or a session change reaches this instance. Passport is not used: one strategy, read
 * from one header, needs none of its per-request machinery.
 */
export function createAuthenticator(clients: ServiceClients) {
  const verify = async (req: Request, token: string): Promise<Caller | false> => {
    const client = clients.identity();
    try {
      const v = await call(client, client.verifyToken, { token }, { deadlineMs: 3_000 });
      return { userId: v.userId, role: v.role === 'admin' ? 'admin' : 'user', tokenId: v.tokenId, token };
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'UNAUTHENTICATED')) throw error;
      req.authRefusal = error.message;
      return false;
    }
  };

  /** Authenticates the bearer token; `required` decides whether a missing one is refused. */
  const authenticate =
    (required: boolean): RequestHandler =>
    (req: Request, res: Response, next: NextFunction) => {
      const sent = Boolean(req.headers.authorization);
      const token = bearerToken(req.headers.authorization);
      const refuse = () => {
        const message =
          req.authRefusal ?? (sent ? 'Not authenticated: the authorization header is not a bearer token' : NO_TOKEN);
        res.setHeader('WWW-Authenticate', 'Bearer');
        next(new GatewayAuthRefusal('UNAUTHENTICATED', message));
      };
      if (!token) return !sent && !required ? next() : refuse();
      verify(req, token).then((caller) => {
        if (!caller) return refuse();
        req.caller = caller;
        next();
      }, next);
    };

  const requireUser = authenticate(true);
  const requireAdmin: RequestHandler = (req, res, next) =>
    requireUser(req, res, (error?: unknown) => {
      if (error) return next(error);
      if (req.caller?.role !== 'admin') return next(new GatewayAuthRefusal('PERMISSION_DENIED', ADMIN_REQUIRED));
      req.adminVerified = true;
      next();
    });
  return { requireUser, requireAdmin, optionalUser: authenticate(false) };
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
