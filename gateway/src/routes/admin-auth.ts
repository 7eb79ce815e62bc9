import type { Router } from 'express';
import { AppError, call } from '@flatlay/platform';
import type { ServiceClients } from '../clients.js';
import type { Authenticator } from '../http/auth.js';
import type { AuthRateLimit } from '../http/rate-limit.js';
import { field } from './auth.js';

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

/**
 * POST /api/admin/login (form-encoded username and password, as the admin dashboard sends them), and the
 * admin guard: every other /api/admin/* and /api/settings/* route needs an admin token
 * (401 without a token, 403 with a user's token). Routes of those areas are added after this.
 */
export function adminAuthRoutes(api: Router, clients: ServiceClients, auth: Authenticator, limit: AuthRateLimit): void {
  api.post('/admin/login', limit('admin-login', adminLoginName), async (req, res) => {
    const c = clients.identity();
    const { accessToken } = await call(
      c,
      c.adminLogin,
      { username: adminLoginName(req.body ?? {}), password: field(req, 'password') },
      { deadlineMs: 15_000 },
    );
    res.json({ access_token: accessToken, token_type: 'bearer' });
  });
  api.use('/admin', auth.requireAdmin);
  api.use('/settings', auth.requireAdmin);
}
