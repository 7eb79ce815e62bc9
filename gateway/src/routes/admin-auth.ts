import type { Router } from 'express';
import { z } from 'zod';
import { call } from '@flatlay/platform';
import { refusal } from '../api/responses.js';
import { route, type ApiRoute } from '../api/route.js';
import { emailField, passwordField } from '../api/schemas.js';
import type { ServiceClients } from '../clients.js';
import type { Authenticator } from '../http/auth.js';

const BOTH_REQUIRED = 'Please enter both email and password';

/** POST /api/admin/login (form-encoded username and password, document 2, section 7). */
export function adminAuthRoutes(clients: ServiceClients): ApiRoute[] {
  return [
    route({
      method: 'post', path: '/admin/login', tags: ['admin'], access: 'none', rateLimit: { action: 'admin-login', emailOf: (b) => b.username },
      summary: 'Operator sign-in (admin role only)',
      request: {
        body: {
          type: 'application/x-www-form-urlencoded', limit: 16_384,
          schema: z.object({ username: emailField(BOTH_REQUIRED, 'username'), password: passwordField(BOTH_REQUIRED) }),
        },
      },
      responses: {
        200: { description: 'Admin token', schema: z.object({ access_token: z.string(), token_type: z.literal('bearer') }) },
        401: refusal('UNAUTHENTICATED', 'Invalid admin credentials'),
      },
      async handle(_req, res, { body }) {
        const c = clients.identity();
        const { accessToken } = await call(c, c.adminLogin, { username: body.username, password: body.password }, { deadlineMs: 15_000 });
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
  api.use('/admin', auth.requireAdmin);
  api.use('/settings', auth.requireAdmin);
}
