import { z } from 'zod';

/** Raised at start-up when the environment does not satisfy a service's schema. */
export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Validates environment variables against a zod object schema whose keys are the variable
 * names. Every problem is reported at once, each naming its variable, so an operator fixes
 * the deployment in one pass. Values are never echoed: some are secrets.
 */
export function loadConfig<S extends z.ZodObject>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const input: Record<string, string | undefined> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = env[key];
    input[key] = value === '' ? undefined : value;
  }
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const variable = issue.path.join('.') || '(environment)';
    const missing = input[variable] === undefined;
    return missing ? `${variable} is required but not set` : `${variable} is invalid: ${issue.message}`;
  });
  throw new ConfigError(problems);
}

/** Reusable pieces for service schemas. */
export const env = {
  port: (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback),
  url: () => z.url(),
  optionalUrl: () => z.url().optional(),
  csv: () =>
    z
      .string()
      .transform((s) =>
        s
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.string().min(1)).min(1)),
  logLevel: () => z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** KAFKA_TOPIC_PREFIX: a namespace on a shared broker (ADR 0010); unset in production. */
  kafkaTopicPrefix: () =>
    z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,100}$/, 'letters, digits, dots, dashes and underscores only (at most 100)')
      .optional(),
};
