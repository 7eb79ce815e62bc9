import type { Router } from 'express';
import { z } from 'zod';
import { AppError, call } from '@flatlay/platform';
import { refusal } from '../api/responses.js';
import { route, type ApiRoute } from '../api/route.js';
import { emailField, passwordField } from '../api/schemas.js';
import type { ServiceClients } from '../clients.js';
import type { Authenticator } from '../http/auth.js';

const BOTH_REQUIRED = 'Please enter both email and password';

/**
 * The name an admin signs in with: the form's `username` (what the admin app sends), else `email`.
 * The attempt limiter and the handler both read it through this one function, so the counter is
 * keyed on exactly the name that is checked (posting `email=` instead cannot dodge it).
 */
export function adminLoginName(body: Record<string, unknown>): string {
  for (const key of ['username', 'email']) {
    const value = body[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') throw new AppError('INVALID_ARGUMENT', 'username must be a string');
    return value;
  }
  return '';
}

const AdminCredentials = z
  .object({
    username: emailField(BOTH_REQUIRED, 'username').optional(),
    email: emailField(BOTH_REQUIRED, 'username')
      .optional()
      .meta({ description: 'The same as username, for clients that name the field so; username wins when both come' }),
    password: passwordField(BOTH_REQUIRED),
  })
  .refine((b) => b.username !== undefined || b.email !== undefined, { error: BOTH_REQUIRED, path: ['username'] })
  // The document says what the refinement enforces: one of the two names must come.
  .meta({ anyOf: [{ required: ['username'] }, { required: ['email'] }] });

/** POST /api/admin/login (form-encoded username and password, as the admin dashboard sends them). */
export function adminAuthRoutes(clients: ServiceClients): ApiRoute[] {
  return [
    route({
      method: 'post',
      path: '/admin/login',
      tags: ['admin'],
      access: 'none',
      rateLimit: { action: 'admin-login', emailOf: adminLoginName },
      summary: 'Operator sign-in (admin role only)',
      request: { body: { type: 'application/x-www-form-urlencoded', limit: 16_384, schema: AdminCredentials } },
      responses: {
        200: {
          description: 'Admin token',
          schema: z.object({ access_token: z.string(), token_type: z.literal('bearer') }),
        },
        401: refusal('UNAUTHENTICATED', 'Invalid admin credentials'),
      },
      async handle(req, res, { body }) {
        const c = clients.identity();
        const { accessToken } = await call(
          c,
          c.adminLogin,
          { username: adminLoginName(req.body ?? {}), password: body.password },
          { deadlineMs: 15_000 },
        );
        res.json({ access_token: accessToken, token_type: 'bearer' });
      },
    }),
  ];
}

/**
 * The admin guard: every other /api/admin/* and /api/settings/* path needs an admin token (401
 * without one, 403 with a user's), so an area's paths are not told apart before sign-in.
 * Mounted after the declared operations, which carry their own access.
 */
export function guardAdminAreas(api: Router, auth: Authenticator): void {
  for (const area of GUARDED_AREAS) api.use(area, auth.requireAdmin);
}

/** The /api areas whose every path needs an admin token (guardAdminAreas). */
export const GUARDED_AREAS = ['/admin', '/settings'];
