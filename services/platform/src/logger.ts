import { trace } from '@opentelemetry/api';
import { pino, type Logger } from 'pino';

export type { Logger } from 'pino';

/** Field names that carry credentials: passwords, our and providers' tokens, keys, cookies. */
const SECRET_NAMES = [
  'password',
  'newPassword',
  'currentPassword',
  'token',
  'accessToken',
  'access_token',
  'idToken',
  'id_token',
  'refreshToken',
  'refresh_token',
  'credential',
  'credentials',
  'secret',
  'clientSecret',
  'client_secret',
  'apiKey',
  'api_key',
  'x-api-key',
  'privateKey',
  'private_key',
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'databaseUrl',
  'database_url',
];
/** The same, compared in lower case (`Authorization` and `authorization` alike). */
const SECRET_FIELDS = new Set(SECRET_NAMES.map((name) => name.toLowerCase()));
const CENSOR = '[redacted]';
/** Deeper than this a log object is not searched (it also stops on a cycle). */
const MAX_DEPTH = 10;

/**
 * A copy of a log object with every secret field replaced, at any depth, in plain objects and
 * arrays (pino's own path-based redaction cannot say "at any depth", and costs more per line
 * with each wildcard level). The caller's object is never changed; instances of classes (errors,
 * buffers, dates) are left to pino's serializers as they are.
 */
export function redactSecrets<T>(value: T, depth = 0): T {
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, i) => {
      const redacted = redactSecrets(item, depth + 1);
      if (redacted !== item) {
        copy ??= [...value];
        copy[i] = redacted;
      }
    });
    return (copy ?? value) as T;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const redacted =
      SECRET_FIELDS.has(key.toLowerCase()) && item !== undefined && item !== null
        ? CENSOR
        : redactSecrets(item, depth + 1);
    if (redacted !== item) {
      copy ??= { ...(value as Record<string, unknown>) };
      copy[key] = redacted;
    }
  }
  return (copy ?? value) as T;
}

/**
 * JSON logs with the active trace and span id on every line, so a log line can be joined to
 * its trace. Known secret-bearing fields are redacted wherever they appear in a logged object,
 * and at the top of a child logger's bindings.
 */
export function createLogger(
  service: string,
  level: string = process.env.LOG_LEVEL ?? 'info',
  destination?: pino.DestinationStream,
): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { log: (object) => redactSecrets(object) },
    // formatters.log does not see a child logger's bindings; pino's own redaction does, for top-level names.
    redact: { paths: SECRET_NAMES.map((name) => (/^[\w$]+$/.test(name) ? name : `["${name}"]`)), censor: CENSOR },
    mixin() {
      const span = trace.getActiveSpan();
      if (!span) return {};
      const { traceId, spanId } = span.spanContext();
      return { trace_id: traceId, span_id: spanId };
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
