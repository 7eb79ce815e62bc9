// Request checks made once per operation at start: the body's type and size, and the zod
// schemas of params, query and body, with answers a person can act on.
import type { Request } from 'express';
import type { z } from 'zod';
import { AppError } from '@flatlay/platform';
import { checkIdempotencyKeyHeader } from './idempotency-key.js';
import type { ApiRoute, BodyMediaType } from './route.js';

const HINTS: Record<BodyMediaType, string> = {
  'application/json': 'as JSON',
  'application/x-www-form-urlencoded': 'form-encoded',
  'multipart/form-data': 'as multipart form data',
};

export const wrongMediaType = (type: BodyMediaType, got: string | undefined) =>
  `Send the body ${HINTS[type]} with Content-Type: ${type} (got ${got ?? 'no Content-Type'})`;

export const tooLarge = (limit: number) => `The request body is too large: at most ${limit} bytes`;

/** Whether the request carries a body at all (fetch sends Content-Length: 0 for a bare POST). */
export function hasBody(req: Request): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && length !== '0';
}

// zod's own messages ("Invalid input: expected string, received number") do not say which
// field; ours (set on each schema) already do, and are kept as they are.
const GENERIC = /^(Invalid|Too (big|small)|Unrecognized|Expected)/;

function messageOf(issue: z.core.$ZodIssue, part: 'params' | 'query' | 'body'): string {
  if (!GENERIC.test(issue.message)) return issue.message;
  const where = issue.path.length ? issue.path.join('.') : part === 'body' ? 'the body' : part;
  return `${part === 'body' ? '' : `${part} `}${where}: ${issue.message}`.trim();
}

export interface ValidInput {
  params: unknown;
  query: unknown;
  body: unknown;
}

/** The validator of one operation, made once: it answers the parts typed, or throws a 400. */
export function compileValidator(r: ApiRoute): (req: Request) => ValidInput {
  const parts = (['params', 'query', 'body'] as const).map((part) => {
    const schema = part === 'body' ? r.request.body?.schema : r.request[part];
    return { part, schema };
  });
  return (req) => {
    if (r.idempotencyKey) checkIdempotencyKeyHeader(req);
    const out: Record<string, unknown> = { params: {}, query: {}, body: {} };
    for (const { part, schema } of parts) {
      if (!schema) continue;
      const raw = part === 'body' ? (req.body ?? {}) : part === 'query' ? req.query : req.params;
      const result = schema.safeParse(raw);
      if (!result.success) throw new AppError('INVALID_ARGUMENT', messageOf(result.error.issues[0]!, part));
      out[part] = result.data;
    }
    return out as unknown as ValidInput;
  };
}
