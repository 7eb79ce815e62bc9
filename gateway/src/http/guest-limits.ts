import { createHmac } from 'node:crypto';
import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from '@flatlay/platform';
import { clientBucketOf } from './client-address.js';

// Limits of a guest's tries (POST /images/anonymous/generate, ADR 0105): each one stores an
// original of up to 10 MB and queues a full enhancement, with no account behind it.

export interface GuestTryLimitOptions {
  /** Tries accepted per client IP (an IPv6 client's /64) per hour. */
  perIpPerHour: number;
  /** Tries accepted per e-mail address per hour, from any client. */
  perEmailPerHour: number;
  /** A guest's tries still processing at once, per e-mail address and per client. */
  unfinishedPerGuest: number;
}

export const defaultGuestTryLimits: GuestTryLimitOptions = {
  perIpPerHour: 10,
  perEmailPerHour: 5,
  unfinishedPerGuest: 2,
};

const HOUR_SECONDS = 3_600;
/** When to come back after the unfinished-tries limit: about how long a try takes. */
const UNFINISHED_RETRY_SECONDS = 60;

/** A guest's tries still processing (the image service counts them): by e-mail address, by client. */
export type UnfinishedGuestTries = (
  guestEmail: string,
  guestClient: string,
) => Promise<{ byEmail: number; byClient: number }>;

const inMinutes = (seconds: number) => {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
};

/** The refusal a guest reads: it says when to come back, and that an account has no such limit. */
export function guestLimitReached(retryAfterSeconds: number): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new AppError(
    'RATE_LIMITED',
    `You've reached the limit of free tries for now. Sign up to get 200 free tokens, or try again in ${inMinutes(seconds)}.`,
    { retryAfterSeconds: seconds },
  );
}

/** What this request holds of the limits: its client, what it consumed, whether its try was made. */
interface GuestTry {
  guestClient: string;
  emailChecked: boolean;
  accepted: boolean;
  consumed: Array<() => Promise<unknown>>;
}

declare module 'express-serve-static-core' {
  interface Request {
    guestTry?: GuestTry;
    /**
     * Called by the multipart reader with the text fields read so far when the first file part
     * starts, so a refusal that depends on them comes before the file is stored.
     */
    beforeFiles?: (fields: Record<string, unknown>) => Promise<void>;
  }
}

/** The client a guest's try is recorded with: a keyed hash of its rate-limit bucket, never the address. */
export const guestClientOf = (key: Buffer, bucket: string) =>
  createHmac('sha256', key).update(`flatlay guest client v1|${bucket}`).digest('base64url');

/** Gives back what a request that made no try consumed; once. */
async function giveBack(t: GuestTry): Promise<void> {
  if (t.accepted) return;
  const consumed = t.consumed.splice(0);
  await Promise.all(consumed.map((undo) => undo().catch(() => undefined)));
}

/**
 * After the routes: a guest's request that was refused or failed (a 4xx or 5xx on its way out)
 * gives back what it consumed before the answer leaves, so the next try already sees it.
 */
export const giveBackGuestTry: ErrorRequestHandler = async (error, req, _res, next) => {
  if (req.guestTry) await giveBack(req.guestTry);
  next(error);
};

/** The guest's try was made: what it consumed stays consumed. */
export function acceptGuestTry(req: Request): void {
  if (req.guestTry) req.guestTry.accepted = true;
}

/** The client's key as the try records it (empty outside a limited route). */
export const guestClientOfRequest = (req: Request) => req.guestTry?.guestClient ?? '';

export interface GuestTryLimitDeps {
  unfinished: UnfinishedGuestTries;
  /** Keys the client hash (so the stored value names no address). */
  clientKey: Buffer;
  redis?: Redis;
  keyPrefix?: string;
}

/**
 * The limits of a guest's tries, on rate-limiter-flexible counters (Redis when configured, each
 * instance's memory when Redis is unreachable, as for sign-in). An accepted try counts one per
 * client IP and one per e-mail address for an hour; a refused or failed request gives back what
 * it consumed. The counters are consumed atomically before the work, so a burst of parallel
 * requests cannot all pass. The unfinished-tries check reads the image service: requests sent at
 * the same instant may pass it together, within the hourly limits.
 */
export function guestTryLimits(options: GuestTryLimitOptions, deps: GuestTryLimitDeps) {
  const make = (name: string, points: number): RateLimiterAbstract => {
    const common = { keyPrefix: `${deps.keyPrefix ?? 'flatlay'}:guest-try:${name}`, points, duration: HOUR_SECONDS };
    return deps.redis
      ? new RateLimiterRedis({ ...common, storeClient: deps.redis, insuranceLimiter: new RateLimiterMemory(common) })
      : new RateLimiterMemory(common);
  };
  const perIp = make('ip', options.perIpPerHour);
  const perEmail = make('email', options.perEmailPerHour);

  const consume = async (limiter: RateLimiterAbstract, key: string, t: GuestTry) => {
    try {
      await limiter.consume(key);
    } catch (caught) {
      if (caught instanceof RateLimiterRes) throw guestLimitReached(caught.msBeforeNext / 1000);
      throw caught;
    }
    t.consumed.push(() => limiter.reward(key));
  };

  /** Checks the e-mail address once it is known (before the file is stored when it comes first). */
  const checkEmail = async (req: Request, fields: Record<string, unknown>) => {
    const t = req.guestTry;
    const email = typeof fields.email === 'string' ? fields.email.trim().toLowerCase() : '';
    // Without an address there is nothing to count yet; validation refuses a missing one later.
    if (!t || t.emailChecked || !email.includes('@')) return;
    t.emailChecked = true;
    const { byEmail } = await deps.unfinished(email, '');
    if (byEmail >= options.unfinishedPerGuest) throw guestLimitReached(UNFINISHED_RETRY_SECONDS);
    await consume(perEmail, email, t);
  };

  /** Before the body is read: the client's unfinished tries and hourly count. */
  const beforeBody: RequestHandler = async (req, res, next) => {
    const bucket = clientBucketOf(req.ip);
    const t: GuestTry = {
      guestClient: guestClientOf(deps.clientKey, bucket),
      emailChecked: false,
      accepted: false,
      consumed: [],
    };
    req.guestTry = t;
    req.beforeFiles = (fields) => checkEmail(req, fields);
    // A request that breaks off gives back what it consumed (a refused one already did: giveBackGuestTry).
    res.once('close', () => void giveBack(t));
    try {
      const { byClient } = await deps.unfinished('', t.guestClient);
      if (byClient >= options.unfinishedPerGuest) throw guestLimitReached(UNFINISHED_RETRY_SECONDS);
      await consume(perIp, bucket, t);
      next();
    } catch (error) {
      next(error);
    }
  };

  /** After the body: the e-mail address, when it came after the file (or there was no file). */
  const afterBody = (req: Request) => checkEmail(req, (req.body ?? {}) as Record<string, unknown>);

  return { beforeBody, afterBody };
}

export type GuestTryLimit = ReturnType<typeof guestTryLimits>;
