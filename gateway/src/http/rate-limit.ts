import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError, httpStatusOf, isAppError } from '@flatlay/platform';
import { clientBucketOf } from './client-address.js';
import type { GuestTryLimitOptions } from './guest-limits.js';

export interface AuthRateLimitOptions {
  /** Attempts per client IP per window, per action (login, register, admin login, Google, Supabase), whatever their outcome. */
  perIp: number;
  /** Failed attempts per e-mail address from one client IP per window, per action. */
  perEmail: number;
  /**
   * Failed attempts per e-mail address from all client IPs together per window, per action: the
   * ceiling against guessing spread over many addresses. Default: ten times `perEmail`.
   */
  perEmailAnyIp?: number;
  windowSeconds: number;
  /**
   * Accounts one client (IP, or an IPv6 /64) may create per hour: what bounds the free tokens one
   * client can collect (ADR 0402). Only sign-ups that succeed count.
   */
  signUpsPerHour?: number;
  /** Shared counters across gateway instances; memory when absent. */
  redis?: Redis;
  /** Namespaces the counters (one deployment, or one test, per prefix). */
  keyPrefix?: string;
  /** Limits of a guest's tries (http/guest-limits.ts), on the same store; `defaultGuestTryLimits` when absent. */
  guestTries?: GuestTryLimitOptions;
}

/** Accounts one client may create per hour by default: with 200 free tokens each, at most 6 free images an hour (ADR 0402). */
export const DEFAULT_SIGNUPS_PER_HOUR = 3;

export const defaultAuthRateLimits: AuthRateLimitOptions = {
  perIp: 100,
  perEmail: 10,
  perEmailAnyIp: 100,
  windowSeconds: 900,
  signUpsPerHour: DEFAULT_SIGNUPS_PER_HOUR,
};

/** What the limiter left for the outcome step: how to count this attempt as failed. */
interface SignInAttempt {
  failed(): Promise<void>;
}

declare module 'express-serve-static-core' {
  interface Request {
    signInAttempt?: SignInAttempt;
  }
}

const tooMany = (msBeforeNext: number) => {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new AppError('RATE_LIMITED', `Too many attempts. Please try again in ${seconds} seconds.`, {
    retryAfterSeconds: seconds,
  });
};

/**
 * Limits of sign-in and sign-up attempts (rate-limiter-flexible, Redis when configured). Two kinds:
 * - every attempt counts against the client's IP bucket (an IPv6 client's /64);
 * - only failed attempts count against the e-mail address, per (address, client IP) and, with a
 *   higher ceiling, per address alone. So a stranger's wrong guesses lock out the stranger, not the
 *   owner signing in from elsewhere, and a successful sign-in consumes nothing (it clears its own
 *   (address, IP) failures).
 * Over a limit: 429 with a message and Retry-After. Failures are counted by `countFailedSignIns`,
 * which must follow the routes.
 */
export function authRateLimits(options: AuthRateLimitOptions) {
  const perEmailAnyIp = options.perEmailAnyIp ?? options.perEmail * 10;
  const make = (name: string, points: number, duration = options.windowSeconds): RateLimiterAbstract => {
    const common = {
      keyPrefix: `${options.keyPrefix ?? 'flatlay'}:auth:${name}`,
      points,
      duration,
    };
    // With Redis unreachable, each instance falls back to its own memory counters rather than failing sign-in.
    return options.redis
      ? new RateLimiterRedis({ ...common, storeClient: options.redis, insuranceLimiter: new RateLimiterMemory(common) })
      : new RateLimiterMemory(common);
  };
  const signUps = make('register:hour', options.signUpsPerHour ?? DEFAULT_SIGNUPS_PER_HOUR, 3600);
  const limiters = new Map<
    string,
    { ip: RateLimiterAbstract; failedFromIp: RateLimiterAbstract; failed: RateLimiterAbstract }
  >();
  const limitersOf = (action: string) => {
    if (!limiters.has(action)) {
      limiters.set(action, {
        ip: make(`${action}:ip`, options.perIp),
        failedFromIp: make(`${action}:failed:email-ip`, options.perEmail),
        failed: make(`${action}:failed:email`, perEmailAnyIp),
      });
    }
    return limiters.get(action)!;
  };

  /**
   * Middleware for one action; `loginNameOf` picks the e-mail address (or admin user name) from the
   * body, and must be the very function the handler uses, so the counter is keyed on the name
   * that is checked. Actions without a login name (Google, Supabase) count per IP only.
   */
  return (action: string, loginNameOf: (body: Record<string, unknown>) => unknown): RequestHandler => {
    const { ip, failedFromIp, failed } = limitersOf(action);
    return async (req, res, next) => {
      try {
        const client = clientBucketOf(req.ip);
        await ip.consume(client);
        if (action === 'register') {
          // Taken now (two sign-ups at once cannot both pass the last point), given back when
          // the sign-up is refused: only created accounts count.
          await signUps.consume(client);
          res.once('finish', () => {
            if (res.statusCode >= 400) signUps.reward(client, 1).catch(() => undefined);
          });
        }
        const name = loginNameOf((req.body ?? {}) as Record<string, unknown>);
        if (typeof name === 'string' && name.trim()) {
          const address = name.trim().toLowerCase();
          const pair = `${address}|${client}`;
          const [fromIp, overall] = await Promise.all([failedFromIp.get(pair), failed.get(address)]);
          const blocked = [
            fromIp && fromIp.consumedPoints >= options.perEmail ? fromIp : undefined,
            overall && overall.consumedPoints >= perEmailAnyIp ? overall : undefined,
          ].filter((r): r is RateLimiterRes => Boolean(r));
          if (blocked.length) throw tooMany(Math.max(...blocked.map((r) => r.msBeforeNext)));
          req.signInAttempt = {
            failed: async () => {
              await Promise.all([failedFromIp.penalty(pair), failed.penalty(address)]);
            },
          };
          res.once('finish', () => {
            if (res.statusCode < 400) failedFromIp.delete(pair).catch(() => undefined);
          });
        }
        next();
      } catch (caught) {
        const error = caught instanceof RateLimiterRes ? tooMany(caught.msBeforeNext) : caught;
        if (isAppError(error) && error.code === 'RATE_LIMITED')
          res.setHeader('Retry-After', String(error.details.retryAfterSeconds));
        next(error);
      }
    };
  };
}

export type AuthRateLimit = ReturnType<typeof authRateLimits>;

/**
 * Counts a refused sign-in (a 4xx answer: wrong password, unknown account, taken address) against
 * its e-mail address before the answer leaves, so the next attempt already sees it. Server-side
 * failures (5xx) are not the caller's doing and do not count.
 */
export const countFailedSignIns: ErrorRequestHandler = async (error, req, _res, next) => {
  const attempt = req.signInAttempt;
  req.signInAttempt = undefined;
  if (attempt && isAppError(error) && error.code !== 'RATE_LIMITED' && httpStatusOf(error.code) < 500) {
    await attempt.failed().catch(() => undefined);
  }
  next(error);
};
