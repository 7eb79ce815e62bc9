import { z } from 'zod';
import { loadConfig } from '@flatlay/platform';

/** The identity service's own configuration (on top of the platform's service variables). */
export const identityEnvSchema = z
  .object({
    // Sessions
    JWT_PRIVATE_KEY: z.string().optional(),
    JWT_KEY_FILE: z.string().optional(),
    JWT_ISSUER: z.string().min(1).default('flatlay'),
    JWT_AUDIENCE: z.string().min(1).default('flatlay-api'),
    JWT_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .max(90 * 24 * 3600)
      .default(7 * 24 * 3600),
    JWT_ADMIN_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .max(7 * 24 * 3600)
      .default(12 * 3600),
    // External sign-in
    GOOGLE_CLIENT_ID: z.string().optional(),
    GOOGLE_CERTS_URL: z.url().optional(),
    SUPABASE_JWT_SECRET: z.string().min(16, 'must have at least 16 characters').optional(),
    // Operator account
    ADMIN_EMAIL: z.email().optional(),
    ADMIN_PASSWORD: z
      .string()
      .min(8, 'must have at least 8 characters')
      .max(256, 'must have at most 256 characters')
      .optional(),
    NODE_ENV: z.string().optional(),
  })
  .refine((v) => Boolean(v.ADMIN_EMAIL) === Boolean(v.ADMIN_PASSWORD), {
    message: 'set both ADMIN_EMAIL and ADMIN_PASSWORD, or neither',
    path: ['ADMIN_PASSWORD'],
  })
  .refine((v) => v.NODE_ENV !== 'production' || Boolean(v.JWT_PRIVATE_KEY || v.JWT_KEY_FILE), {
    message: 'set JWT_PRIVATE_KEY (or JWT_KEY_FILE) in production, or sessions would end at every restart',
    path: ['JWT_PRIVATE_KEY'],
  });
export type IdentityConfig = z.infer<typeof identityEnvSchema>;

/** Reads the environment; `overrides` (from a composition root or a test) win over it. */
export function loadIdentityConfig(
  overrides: Partial<Record<keyof IdentityConfig, string>> = {},
  env: NodeJS.ProcessEnv = process.env,
): IdentityConfig {
  return loadConfig(identityEnvSchema, { ...env, ...overrides });
}
