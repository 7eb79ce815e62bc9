import { z } from 'zod';
import { Redis } from 'ioredis';
import { env, registry, serviceIdentityEnvSchema } from '@flatlay/platform';
import type { AuthRateLimitOptions } from './http/rate-limit.js';
import { parseTrustProxy } from './http/client-address.js';
import { defaultGuestTryLimits } from './http/guest-limits.js';

/**
 * Sign-in and sign-up attempt limits; Redis (shared by every gateway) when REDIS_URL is set. The
 * client's address they count by depends on which proxies may name it (TRUST_PROXY).
 */
export const rateLimitEnvSchema = z.object({
  REDIS_URL: env.optionalUrl(),
  AUTH_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(100),
  AUTH_RATE_LIMIT_PER_EMAIL: z.coerce.number().int().min(1).default(10),
  // Unset: ten times AUTH_RATE_LIMIT_PER_EMAIL.
  AUTH_RATE_LIMIT_PER_EMAIL_ANY_IP: z.coerce.number().int().min(1).optional(),
  AUTH_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
  // A guest's tries (ADR 0105): accepted per client IP and per e-mail address per hour, and still
  // processing at once per e-mail address and per client.
  ANON_GENERATIONS_PER_IP_PER_HOUR: z.coerce.number().int().min(1).default(defaultGuestTryLimits.perIpPerHour),
  ANON_GENERATIONS_PER_EMAIL_PER_HOUR: z.coerce.number().int().min(1).default(defaultGuestTryLimits.perEmailPerHour),
  ANON_UNFINISHED_TRIES_PER_GUEST: z.coerce.number().int().min(1).default(defaultGuestTryLimits.unfinishedPerGuest),
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
  GATEWAY_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).max(3_600).default(30),
});

export const gatewayEnvSchema = z
  .object({
    PORT: env.port(registry.gateway.httpPort),
    HOST: z.string().default('0.0.0.0'),
    CORS_ORIGINS: env.csv().default(['http://localhost:8080']),
    IDENTITY_ADDR: z.string().default(`127.0.0.1:${registry.identity.grpcPort}`),
    LEDGER_ADDR: z.string().default(`127.0.0.1:${registry.ledger.grpcPort}`),
    IMAGE_ADDR: z.string().default(`127.0.0.1:${registry.image.grpcPort}`),
    BILLING_ADDR: z.string().default(`127.0.0.1:${registry.billing.grpcPort}`),
    ANALYTICS_ADDR: z.string().default(`127.0.0.1:${registry.analytics.grpcPort}`),
    WEB_DIR: z.string().optional(),
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
  .extend(serviceIdentityEnvSchema.shape);
export type GatewayConfig = z.infer<typeof gatewayEnvSchema>;
