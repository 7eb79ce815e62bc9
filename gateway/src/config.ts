import { z } from 'zod';
import { Redis } from 'ioredis';
import { env, metricsEnvSchema, registry, serviceIdentityEnvSchema } from '@flatlay/platform';
import { type AuthRateLimitOptions, DEFAULT_SIGNUPS_PER_HOUR } from './http/rate-limit.js';
import { parseTrustProxy } from './http/client-address.js';
import { defaultGuestTryLimits } from './http/guest-limits.js';

/**
 * Sign-in and sign-up attempt limits; Redis (shared by every gateway) when REDIS_URL is set. The
 * client's address they count by depends on which proxies may name it (TRUST_PROXY).
 */
export const rateLimitEnvSchema = z.object({
  REDIS_URL: env.optionalUrl().meta({
    description:
      "Redis for the gateway's sign-in and guest-try rate limits (falls back to memory while Redis is unreachable)",
    default: 'unset: in memory',
  }),
  AUTH_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(100).meta({
    description:
      'sign-in, sign-up and admin sign-in attempts allowed per client IP in each window (`AUTH_RATE_LIMIT_WINDOW_SECONDS`); over it: 429 with Retry-After. Google and Supabase sign-in count per client IP only; an IPv6 client counts as its /64',
  }),
  AUTH_RATE_LIMIT_PER_EMAIL: z.coerce.number().int().min(1).default(10).meta({
    description:
      'failed sign-in, sign-up and admin sign-in attempts allowed per (e-mail address, client IP) in each window; over it: 429 with Retry-After. A successful sign-in consumes nothing',
  }),
  // Unset: ten times AUTH_RATE_LIMIT_PER_EMAIL.
  AUTH_RATE_LIMIT_PER_EMAIL_ANY_IP: z.coerce.number().int().min(1).optional().meta({
    description:
      'failed attempts allowed per e-mail address from all client IPs together in each window (only failures count against an address)',
    default: 'ten times `AUTH_RATE_LIMIT_PER_EMAIL` (`100`)',
  }),
  SIGNUPS_PER_CLIENT_PER_HOUR: z.coerce.number().int().min(1).default(DEFAULT_SIGNUPS_PER_HOUR).meta({
    description:
      "accounts one client IP (an IPv6 client's /64) may create per hour; over it: 429 with Retry-After. Only created accounts count. With the 200 free tokens of each, it bounds what one client can collect: 3 an hour is at most 6 free images (docs/decisions/0402-account-mail-and-free-tokens.md)",
  }),
  AUTH_RATE_LIMIT_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(900)
    .meta({ description: 'the window the sign-in limits count in' }),
  // A guest's tries (ADR 0105): accepted per client IP and per e-mail address per hour, and still
  // processing at once per e-mail address and per client.
  ANON_GENERATIONS_PER_IP_PER_HOUR: z.coerce.number().int().min(1).default(defaultGuestTryLimits.perIpPerHour).meta({
    description:
      "a guest's tries (`POST /api/images/anonymous/generate`) accepted per client IP (an IPv6 client's /64) in the last hour; over it: 429 with Retry-After and a message to sign up. Counted on `REDIS_URL` (memory without it); a refused or failed try counts nothing (docs/decisions/0105-anonymous-limits-and-retention.md)",
  }),
  ANON_GENERATIONS_PER_EMAIL_PER_HOUR: z.coerce
    .number()
    .int()
    .min(1)
    .default(defaultGuestTryLimits.perEmailPerHour)
    .meta({
      description:
        "a guest's tries accepted per e-mail address in the last hour; over it: 429 with Retry-After, before the upload is stored when the address comes before the file",
    }),
  ANON_UNFINISHED_TRIES_PER_GUEST: z.coerce
    .number()
    .int()
    .min(1)
    .default(defaultGuestTryLimits.unfinishedPerGuest)
    .meta({
      description:
        "a guest's tries still processing at once, per e-mail address and per client; over it: 429 with Retry-After",
    }),
  TRUST_PROXY: z
    .string()
    .default('loopback')
    .transform((value, ctx) => {
      try {
        return parseTrustProxy(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    })
    .meta({
      description:
        "proxies allowed to name the client in `X-Forwarded-For`: a hop count (e.g. `1` for one ingress), or a comma-separated list of addresses, CIDR ranges, `loopback`, `linklocal`, `uniquelocal`. Behind an ingress set it, or every client shares the ingress's address and its rate-limit bucket; `true` is refused",
    }),
});

export function rateLimitsFrom(config: z.infer<typeof rateLimitEnvSchema>): {
  options: AuthRateLimitOptions;
  close(): Promise<void>;
} {
  const redis = config.REDIS_URL
    ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false })
    : undefined;
  redis?.on('error', () => undefined); // the limiter falls back to memory; ioredis reconnects
  return {
    options: {
      perIp: config.AUTH_RATE_LIMIT_PER_IP,
      perEmail: config.AUTH_RATE_LIMIT_PER_EMAIL,
      perEmailAnyIp: config.AUTH_RATE_LIMIT_PER_EMAIL_ANY_IP,
      windowSeconds: config.AUTH_RATE_LIMIT_WINDOW_SECONDS,
      signUpsPerHour: config.SIGNUPS_PER_CLIENT_PER_HOUR,
      guestTries: {
        perIpPerHour: config.ANON_GENERATIONS_PER_IP_PER_HOUR,
        perEmailPerHour: config.ANON_GENERATIONS_PER_EMAIL_PER_HOUR,
        unfinishedPerGuest: config.ANON_UNFINISHED_TRIES_PER_GUEST,
      },
      redis,
    },
    close: async () => {
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/**
 * How long the gateway keeps a verified token, a profile or a balance at most (ADR 0510): a
 * backstop, as every change invalidates them over the bus; 0 turns the cache off.
 */
export const cacheEnvSchema = z.object({
  GATEWAY_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).max(3_600).default(30).meta({
    description:
      'longest the gateway keeps a verified token, a profile or a balance (each change invalidates them over the bus at once; this is the backstop, ADR 0510); `0` turns the cache off',
  }),
});

export const gatewayEnvSchema = z
  .object({
    PORT: env
      .port(registry.gateway.httpPort)
      .meta({ description: 'HTTP port of the gateway (embedded default and gateway process)' }),
    HOST: z.string().default('0.0.0.0').meta({ description: 'interface the gateway listens on' }),
    CORS_ORIGINS: env.csv().default(['http://localhost:8080']).meta({
      description: 'comma-separated origins allowed to call `/api` from a browser',
      default: '`http://localhost:$PORT`',
    }),
    IDENTITY_ADDR: z.string().default(`127.0.0.1:${registry.identity.grpcPort}`).meta({
      description:
        'where the gateway run as its own process finds the identity service (identity calls no other service)',
    }),
    LEDGER_ADDR: z
      .string()
      .default(`127.0.0.1:${registry.ledger.grpcPort}`)
      .meta({ description: 'where the gateway run as its own process finds the ledger' }),
    IMAGE_ADDR: z
      .string()
      .default(`127.0.0.1:${registry.image.grpcPort}`)
      .meta({ description: 'where the gateway run as its own process finds the image service' }),
    BILLING_ADDR: z
      .string()
      .default(`127.0.0.1:${registry.billing.grpcPort}`)
      .meta({ description: 'where the gateway run as its own process finds billing' }),
    ANALYTICS_ADDR: z
      .string()
      .default(`127.0.0.1:${registry.analytics.grpcPort}`)
      .meta({ description: 'where the gateway run as its own process finds analytics' }),
    WEB_DIR: z
      .string()
      .optional()
      .meta({ description: 'the built React app the gateway serves', default: '`web/dist`' }),
    LOG_LEVEL: env.logLevel(),
    // The bus the services publish on: the gateway follows identity's and the ledger's events
    // there to keep its cache right; without it the gateway keeps nothing between requests.
    KAFKA_BROKERS: env.csv().optional(),
    // The services' namespace on a shared broker (a test's, ADR 0010); unset in production.
    KAFKA_TOPIC_PREFIX: env.kafkaTopicPrefix(),
  })
  .extend(rateLimitEnvSchema.shape)
  .extend(cacheEnvSchema.shape)
  // The gateway as its own process signs its calls to the services with its own private key.
  .extend(serviceIdentityEnvSchema.shape)
  .extend(metricsEnvSchema.shape);
export type GatewayConfig = z.infer<typeof gatewayEnvSchema>;
