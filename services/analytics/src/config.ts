import { z } from 'zod';
import { env, loadConfig } from '@flatlay/platform';

/** What the settings part of analytics needs from the environment (README lists each). */
export const settingsEnvSchema = z.object({
  // 32 bytes (64 hex characters or base64) that encrypt stored secrets; wins over the file.
  SETTINGS_ENCRYPTION_KEY: z.string().optional(),
  // A file holding that key, generated (mode 0600) when missing: the embedded default's choice.
  SETTINGS_ENCRYPTION_KEY_FILE: z.string().optional(),
  // The generative provider: its name makes the {product}_api_key setting; its OpenAI-compatible API is tested.
  GENERATIVE_PROVIDER: z
    .string()
    .regex(/^[a-z][a-z0-9]{0,31}$/, 'must be lowercase letters and digits, starting with a letter')
    .default('openai'),
  GENERATIVE_API_URL: z.url().default('https://api.openai.com/v1').meta({
    description:
      "the settings page's Test lists the provider's models (`GET <GENERATIVE_API_URL>/models`, OpenAI-compatible; the same base address the worker uses)",
  }),
  // The payment provider's secret key and address, for the Stripe connection test (billing reads the same).
  STRIPE_SECRET_KEY: z.string().optional().meta({
    description:
      "the settings page's Stripe Test (the balance) uses it; unset key: the Test answers `Connection failed` and why",
  }),
  STRIPE_API_URL: env.optionalUrl().meta({ description: "where the settings page's Stripe Test calls Stripe" }),
  SETTINGS_TEST_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(10_000)
    .meta({ description: 'how long a settings Test waits for the provider' }),
});
/** How analytics finds the GPU pool it reports, in Kubernetes only (the chart's labels by default). */
export const gpuPoolEnvSchema = z.object({
  GPU_NODE_SELECTOR: z
    .string()
    .min(1)
    .default('flatlay.dev/pool=gpu')
    .meta({ description: 'in Kubernetes only: label selector of the GPU nodes the admin overview counts' }),
  GPU_WORKER_SELECTOR: z
    .string()
    .min(1)
    .default('app.kubernetes.io/component=image-worker')
    .meta({ description: 'in Kubernetes only: label selector of the image-worker pods the admin overview counts' }),
});

export type SettingsConfig = z.infer<typeof settingsEnvSchema>;

export const loadSettingsConfig = (overrides: Partial<Record<keyof SettingsConfig, string>> = {}) =>
  loadConfig(settingsEnvSchema, { ...process.env, ...overrides });
