import { createHmac, timingSafeEqual } from 'node:crypto';
import { ConfigError, inProcessSecret } from '@flatlay/platform';

// Every file the service points a browser at goes through the gateway at an expiring, signed
// URL: the signature (HMAC-SHA256 over the path and the expiry) proves the service handed that
// exact path out, and the expiry stops an old link from working for ever.

export const URL_TTL_SECONDS = 3600;

export interface UrlSigner {
  /** A URL for `path` valid until now + ttl. */
  sign(path: string, now: Date, ttlSeconds?: number): string;
}

const signature = (key: Buffer, path: string, expires: number) =>
  createHmac('sha256', key).update(`${path}\n${expires}`).digest('base64url');

export function urlSigner(key: Buffer): UrlSigner {
  return {
    sign(path, now, ttlSeconds = URL_TTL_SECONDS) {
      const expires = Math.floor(now.getTime() / 1000) + ttlSeconds;
      return `${path}?expires=${expires}&signature=${signature(key, path, expires)}`;
    },
  };
}

export type UrlCheck = { ok: true } | { ok: false; reason: 'malformed' | 'expired' | 'bad_signature' };

/** Checks a path with its `expires` and `signature` query values, as the gateway receives them. */
export function verifySignedUrl(
  key: Buffer,
  path: string,
  expires: string | undefined,
  sig: string | undefined,
  now: Date,
): UrlCheck {
  if (!expires || !sig || !/^\d{1,12}$/.test(expires)) return { ok: false, reason: 'malformed' };
  const expected = Buffer.from(signature(key, path, Number(expires)));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: 'bad_signature' };
  if (Number(expires) * 1000 <= now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true };
}

/** Checks a whole signed URL (path and query) as `sign` wrote it. */
export function verifyUrl(key: Buffer, url: string, now: Date): UrlCheck {
  const parsed = new URL(url, 'http://flatlay.invalid');
  return verifySignedUrl(
    key,
    decodeURIComponent(parsed.pathname),
    parsed.searchParams.get('expires') ?? undefined,
    parsed.searchParams.get('signature') ?? undefined,
    now,
  );
}

/**
 * The URL-signing key: IMAGE_URL_SIGNING_KEY when set. Unset, a process tree that runs both the
 * signer and the verifier (the embedded default, tests: `inProcess`) generates one in memory; a
 * component run as its own process must be given it, as the gateway checks what the image
 * service signs (it is its own secret, derived from nothing else: ADR 0008).
 */
export function urlSigningKey(explicit: string | undefined, inProcess: boolean): Buffer {
  if (explicit) return Buffer.from(explicit);
  if (!inProcess)
    throw new ConfigError([
      'IMAGE_URL_SIGNING_KEY is required but not set (the key, ≥ 32 characters, that signs file URLs; the same for the image service, its workers and the gateway)',
    ]);
  return inProcessSecret('image-url-signing');
}
