import { z } from 'zod';
import { call } from '@flatlay/platform';
import { toApi } from '../api/api-view.js';
import { route, type ApiRoute } from '../api/route.js';
import type { ServiceClients } from '../clients.js';
import { callerMetadata } from '../http/auth.js';

const UnpaidRefund = z.object({
  image_id: z.uuid(),
  user_id: z.string().meta({ description: 'The owner (their account may be closed)' }),
  tokens: z.number().int().meta({ description: 'Tokens the failed generation took and could not give back' }),
  reason: z.string().meta({ description: 'Why the ledger refused the refund' }),
  at: z.string().nullable().meta({ description: 'When the refund was given up (ISO 8601)' }),
});
const UnpaidRefunds = z.object({ refunds: z.array(UnpaidRefund) });

/**
 * /api/admin/refunds/unpaid: failed generations whose refund the ledger refused for good (ADR 0104),
 * so the operator sees them instead of a log line, and can settle them by hand.
 */
export function adminRefundRoutes(clients: ServiceClients): ApiRoute[] {
  return [
    route({
      method: 'get',
      path: '/admin/refunds/unpaid',
      tags: ['admin'],
      access: 'admin',
      summary: 'Refunds of failed generations that could not be paid (the account was closed), newest first',
      responses: { 200: { description: 'The unpaid refunds', schema: UnpaidRefunds } },
      async handle(req, res) {
        const c = clients.image();
        const r = await call(c, c.listUnpaidRefunds, { limit: 100 }, { metadata: callerMetadata(req) });
        res.json(toApi(UnpaidRefunds, r));
      },
    }),
  ];
}
