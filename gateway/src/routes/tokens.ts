import { z } from 'zod';
import { call } from '@flatlay/platform';
import { toApi } from '../api/api-view.js';
import { route, type ApiRoute } from '../api/route.js';
import { Transaction } from '../api/schemas.js';
import type { ServiceClients } from '../clients.js';
import { callerMetadata, callerOf } from '../http/auth.js';

const LIMIT_RULE = 'limit must be an integer between 1 and 100';

const BalanceBody = z.object({ balance: z.number().int() });
const HistoryBody = z.object({ balance: z.number().int(), transactions: z.array(Transaction) });

/** /api/tokens: the caller's balance and history, from the ledger. */
export function tokenRoutes(clients: ServiceClients): ApiRoute[] {
  const tags = ['tokens'];
  return [
    route({
      method: 'get',
      path: '/tokens/balance',
      tags,
      access: 'user',
      summary: "The caller's token balance",
      responses: {
        200: { description: 'Balance', schema: BalanceBody, example: { balance: 200 } },
      },
      async handle(req, res) {
        const l = clients.ledger();
        const balance = await call(
          l,
          l.getBalance,
          { userId: callerOf(req).userId },
          { metadata: callerMetadata(req) },
        );
        res.json(toApi(BalanceBody, balance));
      },
    }),

    route({
      method: 'get',
      path: '/tokens/',
      tags,
      access: 'user',
      summary: "The caller's balance and latest transactions, newest first",
      request: {
        query: z.object({
          limit: z.coerce
            .number({ error: LIMIT_RULE })
            .int({ error: LIMIT_RULE })
            .min(1, { error: LIMIT_RULE })
            .max(100, { error: LIMIT_RULE })
            .default(50)
            .meta({ description: 'How many transactions, newest first', type: 'integer' }),
        }),
      },
      responses: {
        200: {
          description: 'Balance and history',
          schema: HistoryBody,
        },
      },
      async handle(req, res, { query }) {
        const l = clients.ledger();
        const list = await call(
          l,
          l.listTransactions,
          { userId: callerOf(req).userId, limit: query.limit },
          { metadata: callerMetadata(req) },
        );
        res.json(toApi(HistoryBody, list));
      },
    }),
  ];
}
