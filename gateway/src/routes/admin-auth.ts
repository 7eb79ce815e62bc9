import type { RequestHandler, Router } from 'express';
import { call } from '@flatlay/platform';
import type { ServiceClients } from '../clients.js';
import type { Authenticator } from '../http/auth.js';
import { field } from './auth.js';

type Limit = (action: string, emailOf: (body: Record<string, unknown>) => unknown) => RequestHandler;

/**
 * POST /api/admin/login (form-encoded username and password, document 2, section 7), and the
 * admin guard: every other /api/admin/* and /api/settings/* route needs an admin token
 * (401 without a token, 403 with a user's token). Routes of those areas are added after this.
 */
export function adminAuthRoutes(api: Router, clients: ServiceClients, auth: Authenticator, limit: Limit): void {
  api.post('/admin/login', limit('admin-login', (b) => b.username), async (req, res) => {
    const c = clients.identity();
    const { accessToken } = await call(c, c.adminLogin, { username: field(req, 'username', ['email']), password: field(req, 'password') }, { deadlineMs: 15_000 });
    res.json({ access_token: accessToken, token_type: 'bearer' });
  });
  api.use('/admin', auth.requireAdmin);
  api.use('/settings', auth.requireAdmin);
}
