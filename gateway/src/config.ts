import { z } from 'zod';
import { env } from '@flatlay/platform';

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
});
export type GatewayConfig = z.infer<typeof gatewayEnvSchema>;
