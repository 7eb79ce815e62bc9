import type { Router } from 'express';
import { AppError, call } from '@flatlay/platform';
import type { ServiceClients } from '../clients.js';
import { callerMetadata, callerOf, type Authenticator } from '../http/auth.js';

/** /api/tokens: the caller's balance and history, from the ledger. */
export function tokenRoutes(api: Router, clients: ServiceClients, auth: Authenticator): void {
  api.get('/tokens/balance', auth.requireUser, async (req, res) => {
    const l = clients.ledger();
    const { balance } = await call(
      l,
      l.getBalance,
      { userId: callerOf(req).userId },
      { metadata: callerMetadata(req) },
    );
    res.json({ balance });
  });

  api.get('/tokens/', auth.requireUser, async (req, res) => {
    const raw = req.query.limit;
    const limit = raw === undefined ? 50 : Number(raw);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      throw new AppError('INVALID_ARGUMENT', 'limit must be an integer between 1 and 100');
    const l = clients.ledger();
    const list = await call(
      l,
      l.listTransactions,
      { userId: callerOf(req).userId, limit },
      { metadata: callerMetadata(req) },
    );
    res.json({
      balance: list.balance,
      transactions: list.transactions.map((t) => ({
        id: t.id,
        description: t.description,
        amount: t.amount,
        createdAt: t.createdAt ? t.createdAt.toISOString() : null,
      })),
    });
  });
}
