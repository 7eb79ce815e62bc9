import { z } from 'zod';
import { loadConfig, mailEnvSchema } from '@flatlay/platform';

/** The identity service's own configuration (on top of the platform's service variables). */
export const identityEnvSchema = z
  .object({
    // Sessions
    JWT_PRIVATE_KEY: z.string().optional().meta({
      description:
        'PEM private key (EC P-256, RSA ≥ 2048 or Ed25519) that signs access tokens; wins over `JWT_KEY_FILE`',
    }),
    JWT_KEY_FILE: z.string().optional().meta({
      description:
        'PEM key file, generated (mode 0600) when missing, so restarts keep sessions. With neither variable, a process-lifetime key is used, which `NODE_ENV=production` refuses',
      default: 'unset (embedded: `$FLATLAY_DATA_DIR/identity/jwt-signing-key.pem`)',
    }),
    JWT_ISSUER: z.string().min(1).default('flatlay').meta({ description: "access tokens' `iss`" }),
    JWT_AUDIENCE: z.string().min(1).default('flatlay-api').meta({ description: "access tokens' `aud`" }),
    JWT_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .max(90 * 24 * 3600)
      .default(7 * 24 * 3600)
      .meta({ description: 'lifetime of user tokens', default: '`604800` (7 days)' }),
    JWT_ADMIN_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .max(7 * 24 * 3600)
      .default(12 * 3600)
      .meta({ description: 'lifetime of admin tokens', default: '`43200` (12 hours)' }),
    // External sign-in
    GOOGLE_CLIENT_ID: z.string().optional().meta({ description: 'audience that Google ID tokens must carry' }),
    GOOGLE_CERTS_URL: z.url().optional().meta({
      description: "where Google's signing certificates are fetched (tests serve their own)",
      default: "Google's certificate endpoint",
    }),
    SUPABASE_JWT_SECRET: z.string().min(16, 'must have at least 16 characters').optional().meta({
      description: 'HS256 secret of Supabase access tokens (≥ 16 characters)',
      default: 'unset: `/api/auth/supabase` answers 501 (not configured)',
    }),
    PUBLIC_BASE_URL: z.url().default('http://localhost:8080').meta({
      default: '`http://localhost:$PORT` (embedded), `http://localhost:8080` (identity or billing as its own process)',
      description:
        "the product's public address; identity: the links in account e-mail lead to its pages (`/auth/verify-email`, `/auth/reset-password`, `/auth/confirm-email`)",
    }),
    // Operator account
    ADMIN_EMAIL: z.email().optional().meta({
      description: 'with `ADMIN_PASSWORD` (both or neither): the admin account is created or updated at start',
    }),
    ADMIN_PASSWORD: z
      .string()
      .min(8, 'must have at least 8 characters')
      .max(256, 'must have at most 256 characters')
      .optional()
      .meta({
        description:
          "the admin's password (8 to 256 characters), with `ADMIN_EMAIL`; a changed password ends the admin's earlier sessions",
      }),
    NODE_ENV: z.string().optional().meta({
      description:
        '`production` refuses what only fits a developer machine: identity a process-lifetime signing key, the image service `IMAGE_ENGINE=instant`; `test` and `development` make the gateway check its responses against the API document',
    }),
  })
  // E-mail (ADR 0402): the settings billing reads too.
  .extend(mailEnvSchema.shape)
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
