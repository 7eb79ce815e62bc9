// The OpenAPI 3.1 document of /api, made from the operations' declarations by zod-openapi:
// nothing of it is written by hand (docs/decisions/0501-api-schema.md).
import { z } from 'zod';
import { createDocument, type oas31 } from 'zod-openapi';
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject, ZodOpenApiResponsesObject } from 'zod-openapi';
import { responsesOf } from './responses.js';
import { idempotencyKeyHeader } from './idempotency-key.js';
import { openApiPath, type ApiRoute, type BodySpec } from './route.js';

/**
 * The status rules web clients rely on, stated once in the document. The admin app drops its
 * token on any 401/403 of an admin call; the user app wipes its storage and signs out on any
 * 503/504. So those codes must mean exactly that. Each operation's responses then list the
 * statuses these rules give it (`standardResponses`: 401/403/409 of admin operations).
 */
export const STATUS_RULES = [
  'Errors are JSON with `detail` and `message` (the same text, written for a person) and a `code`.',
  '',
  'Status rules clients may rely on:',
  '- 503 (UNAVAILABLE) and 504 (DEADLINE_EXCEEDED) mean a real outage: a service or provider the request needs is down or did not answer in time. Any operation may answer them; clients treat them as "start over".',
  '- 501 (NOT_CONFIGURED) means the feature is not set up on this server (e.g. Google or Supabase sign-in without its settings); the message says which. It is never answered as 503.',
  '- On /admin/* (except /admin/login) and /settings/*, 401 and 403 mean only "admin authentication required" (no, invalid or non-admin token). A refusal by a business rule there answers 409 (or 400/404) with its message, never 401/403.',
  '- A method a path does not declare answers 405 with an `Allow` header; a body of another type than declared, 415; a body over the declared limit, 413 (before it is read).',
].join('\n');

const security = (r: ApiRoute): oas31.SecurityRequirementObject[] | undefined => {
  switch (r.access) {
    case 'user':
    case 'admin':
    case 'session':
      return [{ bearer: [] }];
    case 'optional':
      return [{ bearer: [] }, {}];
    case 'supabase':
      return [{ supabase: [] }];
    default:
      return undefined;
  }
};

function operation(r: ApiRoute): ZodOpenApiOperationObject {
  const responses: ZodOpenApiResponsesObject = {};
  for (const [status, spec] of Object.entries(responsesOf(r))) {
    responses[status as `${1 | 2 | 3 | 4 | 5}${string}`] = {
      description: spec.description,
      ...(spec.headers ? { headers: spec.headers } : {}),
      ...(spec.schema
        ? {
            content: {
              [spec.mediaType ?? 'application/json']: {
                schema: spec.schema,
                ...(spec.example !== undefined ? { example: spec.example } : {}),
              },
            },
          }
        : {}),
    };
  }
  const { params, query, body } = r.request;
  const sec = security(r);
  return {
    operationId: `${r.method}${openApiPath(r.path)
      .replace(/[{}]/g, '')
      .split(/[/.-]/)
      .filter(Boolean)
      .map((w) => w[0]!.toUpperCase() + w.slice(1))
      .join('')}`,
    summary: r.summary,
    ...(r.description ? { description: r.description } : {}),
    tags: r.tags,
    // Who may call it, as declared (the fuzz run expects 2xx only for the roles this admits).
    'x-flatlay-access': r.access,
    ...(sec ? { security: sec } : {}),
    ...(params || query || r.idempotencyKey
      ? {
          requestParams: {
            ...(params ? { path: params } : {}),
            ...(query ? { query } : {}),
            ...(r.idempotencyKey ? { header: idempotencyKeyHeader } : {}),
          },
        }
      : {}),
    ...(body
      ? { requestBody: { required: !body.optional, content: { [body.type]: { schema: bodySchema(body) } } } }
      : {}),
    responses,
  };
}

/**
 * A multipart body's part names travel in part headers, where a control character (other than
 * tab) makes the body unreadable (400 before any field is looked at). Such names, which the
 * object schemas would otherwise allow as extra fields, are left out here.
 */
export const MULTIPART_PART_NAME = '^[^\\u0000-\\u0008\\u000A-\\u001F\\u007F]*$';

function bodySchema(body: BodySpec): z.ZodType {
  if (body.type !== 'multipart/form-data') return body.schema;
  return body.schema.meta({
    ...z.globalRegistry.get(body.schema),
    propertyNames: { type: 'string', pattern: MULTIPART_PART_NAME },
  });
}

/** The document of the given operations; made once at start (and by the build, into gateway/openapi/). */
export function buildOpenApiDocument(routes: ApiRoute[]): oas31.OpenAPIObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const r of routes) {
    const path = openApiPath(r.path);
    paths[path] = { ...paths[path], [r.method]: operation(r) };
  }
  return createDocument({
    openapi: '3.1.0',
    info: { title: 'Flatlay API', version: '0.1.0', description: `The /api of Flatlay.\n\n${STATUS_RULES}` },
    servers: [{ url: '/api' }],
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'An access token from sign-up, sign-in or admin sign-in',
        },
        supabase: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'A Supabase access token (only for Supabase sign-in)',
        },
      },
    },
    paths,
  }) as oas31.OpenAPIObject;
}

/** "METHOD /path" of every operation a document lists. */
export function documentedOperations(document: oas31.OpenAPIObject): string[] {
  const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    Object.keys(item ?? {})
      .filter((k) => methods.includes(k))
      .map((m) => `${m.toUpperCase()} ${path}`),
  );
}
