import { z } from 'zod';
import { Redis } from 'ioredis';
import { env } from '@flatlay/platform';
import type { AuthRateLimitOptions } from './http/rate-limit.js';

/** Sign-in and sign-up attempt limits; Redis (shared by every gateway) when REDIS_URL is set. */
export const rateLimitEnvSchema = z.object({
  REDIS_URL: env.optionalUrl(),
  AUTH_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(100),
  AUTH_RATE_LIMIT_PER_EMAIL: z.coerce.number().int().min(1).default(10),
  AUTH_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
});

export function rateLimitsFrom(config: z.infer<typeof rateLimitEnvSchema>): { options: AuthRateLimitOptions; close(): Promise<void> } {
  const redis = config.REDIS_URL ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false }) : undefined;
  redis?.on('error', () => undefined); // the limiter falls back to memory; ioredis reconnects
  return {
    options: { perIp: config.AUTH_RATE_LIMIT_PER_IP, perEmail: config.AUTH_RATE_LIMIT_PER_EMAIL, windowSeconds: config.AUTH_RATE_LIMIT_WINDOW_SECONDS, redis },
    close: async () => {
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}

export const gatewayEnvSchema = z.object({
  PORT: env.port(8080),
  HOST: z.string().default('0.0.0.0'),
  CORS_ORIGINS: env.csv().default(['http://localhost:8080']),
  IDENTITY_ADDR: z.string().default('127.0.0.1:50051'),
  LEDGER_ADDR: z.string().default('127.0.0.1:50052'),
  IMAGE_ADDR: z.string().default('127.0.0.1:50053'),
  BILLING_ADDR: z.string().default('127.0.0.1:50054'),
  ANALYTICS_ADDR: z.string().default('127.0.0.1:50055'),
  WEB_DIR: z.string().optional(),
  LOG_LEVEL: env.logLevel(),
}).extend(rateLimitEnvSchema.shape);
export type GatewayConfig = z.infer<typeof gatewayEnvSchema>;
