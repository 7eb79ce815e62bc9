import { z } from 'zod';

/**
 * What the generative provider needs to run: an OpenAI-compatible image edit API (ADR 0103).
 * `undefined` from a source means "switched off": every job runs on the local engine.
 */
export interface GenerativeSettings {
  /** The API's root, e.g. `https://api.openai.com/v1`; the edit call is `POST {baseUrl}/images/edits`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>`; never logged. */
  apiKey: string;
  model: string;
  /** Subscription plans (identity's `subscriptionPlan`, active) whose jobs go to the provider. */
  plans: string[];
  /** Prompt per sub-type or main type (a sub-type's own wins, then its main type's, then the default). */
  prompts: Record<string, string>;
  /** How long one call may take before the job falls back to the local engine. */
  timeoutMs: number;
}

/**
 * Where the worker reads the generative settings, once per job, so a change (a new key, the
 * provider switched off) applies to the next job without a restart. The service's default is the
 * operator settings (`operator-settings-source.ts`: the key from `{product}_api_key`, announced by
 * SettingsChanged, the rest from the environment); `envGenerativeSettings` is the environment alone.
 */
export interface GenerativeSettingsSource {
  current(): Promise<GenerativeSettings | undefined>;
}

const csv = z
  .string()
  .default('')
  .transform((s) =>
    s
      .split(',')
      .map((p) => p.trim().toLowerCase())
      .filter(Boolean),
  );

/** The environment's settings (README: GENERATIVE_*). Off unless both a key and plans are set. */
export const generativeEnvSchema = z.object({
  GENERATIVE_API_KEY: z.string().optional().meta({
    description:
      "the generation worker's generative provider (docs/decisions/0103-generative-provider.md): with a key (the operator's `{product}_api_key` from the settings page wins over this one, from the next job on, no restart) and `GENERATIVE_PLANS`, jobs of users with one of those plans active go to an OpenAI-compatible image edit API (`POST <GENERATIVE_API_URL>/images/edits`); any failure or a call longer than `GENERATIVE_TIMEOUT_MS` falls back to the local engine",
    default: 'unset (off)',
  }),
  GENERATIVE_API_URL: z
    .url()
    .default('https://api.openai.com/v1')
    .meta({ description: "the generative provider's OpenAI-compatible base address" }),
  GENERATIVE_MODEL: z
    .string()
    .min(1)
    .default('gpt-image-1')
    .meta({ description: 'the model the image edit calls name' }),
  GENERATIVE_PLANS: csv.meta({
    description: "comma-separated plans (e.g. `pro,studio`) whose users' jobs go to the generative provider",
    default: 'unset (none)',
  }),
  // A JSON object: sub-type or main type -> prompt, e.g. {"tops":"...","shoes":"..."}.
  GENERATIVE_PROMPTS: z
    .string()
    .default('{}')
    .transform((s, ctx) => {
      try {
        return z.record(z.string(), z.string().min(1)).parse(JSON.parse(s));
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON object of type -> prompt' });
        return z.NEVER;
      }
    })
    .meta({
      description:
        'the prompt per sub-type or main type, a JSON object (e.g. `{"tops":"..."}`); a type not in it gets a built-in one',
    }),
  GENERATIVE_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(60_000)
    .meta({ description: 'longest a generative call may take before the job falls back to the local engine' }),
});

/** The GENERATIVE_* variables. */
export type GenerativeEnvName = keyof typeof generativeEnvSchema.shape;

/** The environment's part of the settings: everything but the key may only come from here. */
export type GenerativeEnv = Omit<GenerativeSettings, 'apiKey'> & { apiKey: string | undefined };

/** Reads (and checks) GENERATIVE_*; a malformed value throws, naming the variable. */
export function generativeEnvFrom(env: Record<string, string | undefined>): GenerativeEnv {
  const parsed = generativeEnvSchema.safeParse(env);
  if (!parsed.success)
    throw new Error(
      `Invalid generative provider settings: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  const e = parsed.data;
  return {
    baseUrl: e.GENERATIVE_API_URL.replace(/\/+$/, ''),
    apiKey: e.GENERATIVE_API_KEY || undefined,
    model: e.GENERATIVE_MODEL,
    plans: e.GENERATIVE_PLANS,
    prompts: e.GENERATIVE_PROMPTS,
    timeoutMs: e.GENERATIVE_TIMEOUT_MS,
  };
}

/**
 * The settings a job runs under: the operator's key when one is set (SettingsChanged), else the
 * environment's; model, prompts, plans, address and timeout are the environment's (the operator
 * settings have no such fields). Off (undefined) without a key or without a plan.
 */
export function chooseGenerativeSettings(
  env: GenerativeEnv,
  operatorKey: string | undefined,
): GenerativeSettings | undefined {
  const apiKey = operatorKey || env.apiKey;
  if (!apiKey || env.plans.length === 0) return undefined;
  return { ...env, apiKey };
}

export function generativeSettingsFromEnv(env: Record<string, string | undefined>): GenerativeSettings | undefined {
  return chooseGenerativeSettings(generativeEnvFrom(env), undefined);
}

/** The environment as a source: read (and checked) once, at start. */
export function envGenerativeSettings(env: Record<string, string | undefined> = process.env): GenerativeSettingsSource {
  const settings = generativeSettingsFromEnv(env);
  return { current: async () => settings };
}
