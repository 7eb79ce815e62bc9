import { ledger } from '@flatlay/proto';
import { AppError, serviceStatus, unary, type GrpcService, type ServiceContext } from '@flatlay/platform';
import type { TokenAccountEvent } from '../domain/index.js';
import type { TokenAccounts } from '../app/token-accounts.js';
import { readBalance, readTransactions } from '../adapters/account-projection.js';

const required = (value: string, field: string) => {
  if (!value) throw new AppError('INVALID_ARGUMENT', `${field} is required`);
  return value;
};

const sumOf = (events: TokenAccountEvent[], type: TokenAccountEvent['type']) =>
  events.filter((e) => e.type === type).reduce((n, e) => n + e.data.amount, 0);

/** Maps the LedgerService protobuf API to TokenAccount commands and read models. */
export function ledgerGrpcService(
  ctx: ServiceContext,
  accounts: TokenAccounts,
  clock: () => Date = () => new Date(),
): GrpcService {
  const { logger, pool } = ctx;
  const implementation: ledger.LedgerServiceServer = {
    getServiceStatus: unary(logger, async () => serviceStatus(ctx)),

    openAccount: unary(logger, async (req: ledger.OpenAccountRequest) => {
      const { balance } = await accounts.execute(required(req.userId, 'userId'), {
        type: 'SignUpGrant',
        data: { at: clock() },
      });
      return { balance };
    }),

    spend: unary(logger, async (req: ledger.SpendRequest) => {
      const userId = required(req.userId, 'userId');
      const imageId = required(req.imageId, 'imageId');
      const at = clock();
      const command =
        req.purpose === ledger.SpendPurpose.SPEND_PURPOSE_UNLOCK
          ? ({ type: 'UnlockImage', data: { imageId, at } } as const)
          : req.purpose === ledger.SpendPurpose.SPEND_PURPOSE_ENHANCEMENT
            ? ({ type: 'SpendForImage', data: { imageId, at } } as const)
            : undefined;
      if (!command) throw new AppError('INVALID_ARGUMENT', 'purpose must be ENHANCEMENT or UNLOCK');
      const { balance, events, state } = await accounts.execute(userId, command);
      const spent = events.find((e) => e.type === 'TokensSpent');
      // A repeat (the same image id) changes nothing; for an enhancement it answers what the first
      // spend took, so a caller settling a charge after a crash learns the truth (ADR 0104).
      const repeatCharge = command.type === 'SpendForImage' ? (state.imageSpends.get(imageId) ?? 0) : 0;
      return {
        balance,
        charged: events.length > 0 ? sumOf(events, 'TokensSpent') : repeatCharge,
        unlimitedPlan: spent?.type === 'TokensSpent' ? spent.data.unlimitedPlan : false,
      };
    }),

    refund: unary(logger, async (req: ledger.RefundRequest) => {
      const { balance, events } = await accounts.execute(required(req.userId, 'userId'), {
        type: 'RefundImageSpend',
        data: { imageId: required(req.imageId, 'imageId'), at: clock() },
      });
      return { balance, refunded: sumOf(events, 'TokensRefunded') };
    }),

    credit: unary(logger, async (req: ledger.CreditRequest) => {
      const { balance } = await accounts.execute(required(req.userId, 'userId'), {
        type: 'CreditPayment',
        data: {
          paymentId: required(req.paymentId, 'paymentId'),
          packId: req.packId,
          packName: req.packName,
          tokens: req.tokens,
          at: clock(),
        },
      });
      return { balance };
    }),

    grantPlan: unary(logger, async (req: ledger.GrantPlanRequest) => {
      if (!req.periodStart || !req.periodEnd)
        throw new AppError('INVALID_ARGUMENT', 'periodStart and periodEnd are required');
      const { balance } = await accounts.execute(required(req.userId, 'userId'), {
        type: 'GrantPlan',
        data: {
          subscriptionId: required(req.subscriptionId, 'subscriptionId'),
          plan: req.plan as never,
          billingPeriod: req.billingPeriod as never,
          periodStart: req.periodStart,
          periodEnd: req.periodEnd,
          at: clock(),
        },
      });
      return { balance };
    }),

    adjust: unary(logger, async (req: ledger.AdjustRequest) => {
      const { balance, events } = await accounts.execute(required(req.userId, 'userId'), {
        type: 'AdminAdjust',
        data: {
          adjustmentId: required(req.adjustmentId, 'adjustmentId'),
          operatorId: required(req.operatorId, 'operatorId'),
          reason: req.reason,
          direction: req.direction as never,
          tokens: req.tokens,
          at: clock(),
        },
      });
      return { balance, applied: sumOf(events, 'TokensAdjusted') };
    }),

    getBalance: unary(logger, async (req: ledger.GetBalanceRequest) => {
      const account = await readBalance(pool, required(req.userId, 'userId'));
      return { balance: account?.balance ?? 0 };
    }),

    listTransactions: unary(logger, async (req: ledger.ListTransactionsRequest) => {
      const userId = required(req.userId, 'userId');
      const limit = req.limit === 0 ? 10 : req.limit;
      if (limit < 1 || limit > 100) throw new AppError('INVALID_ARGUMENT', 'limit must be between 1 and 100');
      const [account, transactions] = await Promise.all([
        readBalance(pool, userId),
        readTransactions(pool, userId, limit, Math.max(0, req.offset ?? 0)),
      ]);
      return { balance: account?.balance ?? 0, transactions };
    }),
  };
  return { name: 'flatlay.ledger.v1.LedgerService', definition: ledger.LedgerServiceService, implementation };
}
