import type { RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from '@flatlay/platform';

export interface AuthRateLimitOptions {
  /** Attempts per client IP per window, per action (login, register, admin login). */
  perIp: number;
  /** Attempts per e-mail address per window, per action. */
  perEmail: number;
  windowSeconds: number;
  /** Shared counters across gateway instances; memory when absent. */
  redis?: Redis;
  /** Namespaces the counters (one deployment, or one test, per prefix). */
  keyPrefix?: string;
}

export const defaultAuthRateLimits: AuthRateLimitOptions = { perIp: 100, perEmail: 10, windowSeconds: 900 };

/**
 * Limits of sign-in and sign-up attempts per client IP and per e-mail address (rate-limiter-flexible,
 * Redis when configured). Over the limit: 429 with a message and Retry-After.
 */
export function authRateLimits(options: AuthRateLimitOptions) {
  const make = (name: string, points: number): RateLimiterAbstract => {
    const common = { keyPrefix: `${options.keyPrefix ?? 'flatlay'}:auth:${name}`, points, duration: options.windowSeconds };
    // With Redis unreachable, each instance falls back to its own memory counters rather than failing sign-in.
    return options.redis ? new RateLimiterRedis({ ...common, storeClient: options.redis, insuranceLimiter: new RateLimiterMemory(common) }) : new RateLimiterMemory(common);
  };
  const limiters = new Map<string, { ip: RateLimiterAbstract; email: RateLimiterAbstract }>();

  /** Middleware for one action; `emailOf` finds the address in the request body. */
  return (action: string, emailOf: (body: Record<string, unknown>) => unknown): RequestHandler => {
    if (!limiters.has(action)) limiters.set(action, { ip: make(`${action}:ip`, options.perIp), email: make(`${action}:email`, options.perEmail) });
    const { ip, email } = limiters.get(action)!;
    return async (req, res, next) => {
      try {
        await ip.consume(req.ip ?? 'unknown');
        const address = emailOf((req.body ?? {}) as Record<string, unknown>);
        if (typeof address === 'string' && address.trim()) await email.consume(address.trim().toLowerCase());
        next();
      } catch (error) {
        if (!(error instanceof RateLimiterRes)) return next(error);
        const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
        res.setHeader('Retry-After', String(seconds));
        next(new AppError('RATE_LIMITED', `Too many attempts. Please try again in ${seconds} seconds.`, { retryAfterSeconds: seconds }));
      }
    };
  };
}
