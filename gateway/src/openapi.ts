// The OpenAPI 3.1 description of /api, served at /api/openapi.json. A test compares its
// operations with the routes Express has registered, so a route cannot be added or removed
// without this document following.

type Schema = Record<string, unknown>;
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const str = (description?: string): Schema => ({ type: 'string', ...(description ? { description } : {}) });
const nullableStr = (format?: string): Schema => ({ type: ['string', 'null'], ...(format ? { format } : {}) });
const obj = (properties: Record<string, Schema>, required: string[] = Object.keys(properties)): Schema => ({
  type: 'object',
  properties,
  required,
});
const json = (schema: Schema) => ({ content: { 'application/json': { schema } } });
const ok = (description: string, schema: Schema) => ({ description, ...json(schema) });
const error = (description: string) => ({ description, ...json(ref('Error')) });
const bearer = [{ bearer: [] }];

const authErrors = {
  '401': error('Not authenticated: no, malformed, tampered, expired or revoked token, or the account no longer exists'),
};
const adminErrors = {
  ...authErrors,
  '403': error('Admin authentication required (a non-admin token)'),
  '409': error(
    'The operation was refused by a business rule (e.g. an administrator account cannot be deleted); never 401/403, so the admin stays signed in',
  ),
};
const limited = {
  '429': {
    ...error('Too many attempts; Retry-After says when to try again'),
    headers: { 'Retry-After': { schema: { type: 'integer' } } },
  },
};
const notConfigured = (what: string) => ({
  '501': error(`${what} is not configured on this server (code NOT_CONFIGURED); not an outage`),
});

/**
 * The status rules web clients rely on, stated once in the document. The admin app drops its
 * token on any 401/403 of an admin call; the user app wipes its storage and signs out on any
 * 503/504. So those codes must mean exactly that.
 */
const STATUS_RULES = [
  'Errors are JSON with `detail` and `message` (the same text) and a `code`.',
  'Status rules clients may rely on:',
  '- 503 (UNAVAILABLE) and 504 (DEADLINE_EXCEEDED) mean a real outage: a service or provider the request needs is down or did not answer in time. Any operation may answer them; clients treat them as "start over".',
  '- 501 (NOT_CONFIGURED) means the feature is not set up on this server (e.g. Google or Supabase sign-in without its settings); the message says which. It is never answered as 503.',
  '- On /admin/* (except /admin/login) and /settings/*, 401 and 403 mean only "admin authentication required" (no, invalid or non-admin token). A refusal by a business rule there answers 409 (or 400/404) with its message, never 401/403.',
].join('\n');

const session = ok('Signed in', ref('Session'));

export const openApiDocument = {
  openapi: '3.1.0',
  info: { title: 'Flatlay API', version: '0.1.0', description: `The /api of Flatlay. ${STATUS_RULES}` },
  servers: [{ url: '/api' }],
  components: {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    schemas: {
      Error: obj(
        { detail: str(), message: str(), code: str('Error code, e.g. UNAUTHENTICATED'), context: { type: 'object' } },
        ['detail', 'message', 'code'],
      ),
      Credentials: obj({ email: { type: 'string', format: 'email' }, password: { type: 'string', minLength: 8 } }),
      User: obj({
        id: { type: 'string', format: 'uuid' },
        email: { type: 'string', format: 'email' },
        tokenBalance: { type: 'integer' },
        firstName: nullableStr(),
        lastName: nullableStr(),
        name: str('First plus last name, else first name, else the e-mail local part'),
        avatarUrl: nullableStr('uri'),
        stripeCustomerId: nullableStr(),
        stripeSubscriptionId: nullableStr(),
        subscriptionPlan: { type: 'string', enum: ['none', 'lite', 'studio', 'bulk', 'unlimited'] },
        subscriptionStatus: { type: ['string', 'null'], enum: ['active', 'past_due', 'canceled', null] },
        subscriptionPlanName: nullableStr(),
        subscriptionPeriodEnd: nullableStr('date-time'),
        isUnlimited: { type: 'boolean' },
        role: { type: 'string', enum: ['user', 'admin'] },
        createdAt: nullableStr('date-time'),
      }),
      Session: obj({
        access_token: str('Bearer access token (JWT)'),
        token_type: { const: 'bearer' },
        user: ref('User'),
      }),
      Transaction: obj({
        id: str(),
        description: str(),
        amount: { type: 'integer', description: 'Positive for credits, negative for debits' },
        createdAt: nullableStr('date-time'),
      }),
    },
  },
  paths: {
    '/openapi.json': {
      get: { summary: 'This document', responses: { '200': ok('OpenAPI 3.1 document', { type: 'object' }) } },
    },
    '/auth/register': {
      post: {
        summary: 'Create an account with e-mail and password (200 free tokens)',
        requestBody: { required: true, ...json(ref('Credentials')) },
        responses: {
          '201': ok('Account created and signed in', ref('Session')),
          '400': error('Malformed e-mail or password under 8 characters'),
          '409': error('An account with this email already exists'),
          ...limited,
        },
      },
    },
    '/auth/login': {
      post: {
        summary: 'Sign in with e-mail and password',
        requestBody: { required: true, ...json(ref('Credentials')) },
        responses: {
          '200': session,
          '400': error('Email and password are required'),
          '401': error('Invalid email or password'),
          ...limited,
        },
      },
    },
    '/auth/google': {
      post: {
        summary: 'Sign in with a Google ID token; creates or links the account',
        requestBody: { required: true, ...json(obj({ idToken: str('Google ID token (JWT)') })) },
        responses: {
          '200': session,
          '400': error('idToken is required'),
          '401': error('Could not verify Google account'),
          '403': error('Administrator accounts sign in with their password'),
          '409': error(
            'An account with this email already exists. Confirm your email address with your sign-in provider first, or sign in with your password.',
          ),
          ...notConfigured('Google sign-in'),
          ...limited,
        },
      },
    },
    '/auth/supabase': {
      post: {
        summary: 'Sign in with a Supabase access token (bearer); creates or links the account',
        security: bearer,
        requestBody: { required: false, ...json(obj({ id: str(), email: str(), name: str(), avatarUrl: str() }, [])) },
        responses: {
          '200': session,
          '401': error('Missing or invalid Supabase token, or one for another user'),
          '403': error('Administrator accounts sign in with their password'),
          '409': error(
            'An account with this email already exists. Confirm your email address with your sign-in provider first, or sign in with your password.',
          ),
          ...notConfigured('Supabase sign-in'),
          ...limited,
        },
      },
    },
    '/auth/me': {
      get: {
        summary: 'The profile of the caller',
        security: bearer,
        responses: { '200': ok('Profile', ref('User')), ...authErrors },
      },
    },
    '/auth/logout': {
      post: {
        summary: 'Revoke the presented token until it would expire',
        security: bearer,
        responses: { '200': ok('Logged out', obj({ message: str() })), ...authErrors },
      },
    },
    '/tokens/balance': {
      get: {
        summary: "The caller's token balance",
        security: bearer,
        responses: { '200': ok('Balance', obj({ balance: { type: 'integer' } })), ...authErrors },
      },
    },
    '/tokens/': {
      get: {
        summary: "The caller's balance and latest transactions, newest first",
        security: bearer,
        parameters: [
          {
            name: 'limit',
            in: 'query',
            required: false,
            schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 },
          },
        ],
        responses: {
          '200': ok(
            'Balance and history',
            obj({ balance: { type: 'integer' }, transactions: { type: 'array', items: ref('Transaction') } }),
          ),
          '400': error('limit out of range'),
          ...authErrors,
        },
      },
    },
    '/admin/login': {
      post: {
        summary: 'Operator sign-in (admin role only)',
        requestBody: {
          required: true,
          content: {
            'application/x-www-form-urlencoded': {
              schema: obj({ username: { type: 'string', format: 'email' }, password: str() }),
            },
          },
        },
        responses: {
          '200': ok('Admin token', obj({ access_token: str(), token_type: { const: 'bearer' } })),
          '400': error('Please enter both email and password'),
          '401': error('Invalid admin credentials'),
          ...limited,
        },
      },
    },
  } as Record<string, Record<string, { security?: unknown; responses: Record<string, unknown> }>>,
  'x-status-rules': STATUS_RULES,
  'x-guards': {
    '/admin/*': {
      security: bearer,
      responses: adminErrors,
      note: 'Every /api/admin route except /admin/login needs an admin token',
    },
    '/settings/*': { security: bearer, responses: adminErrors, note: 'Every /api/settings route needs an admin token' },
  },
};

/** "METHOD /path" of every operation the document describes. */
export function documentedOperations(): string[] {
  return Object.entries(openApiDocument.paths).flatMap(([path, ops]) =>
    Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
  );
}
