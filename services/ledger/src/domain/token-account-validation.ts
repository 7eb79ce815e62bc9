/** Shape checks on commands: a malformed command is refused with INVALID_ARGUMENT or UNKNOWN_PLAN. */
import type { TokenAccountCommand } from './token-account-commands.js';
import { TokenAccountRefusal } from './token-account-refusal.js';
import { BILLING_PERIODS, UNLIMITED_PLAN, isTokenPlan } from './token-rules.js';

const COMMAND_TYPES: ReadonlySet<string> = new Set<TokenAccountCommand['type']>([
  'SignUpGrant',
  'SpendForImage',
  'RefundImageSpend',
  'CreditPayment',
  'ReversePayment',
  'GrantPlan',
  'ReversePlanGrant',
  'EndUnlimitedPlan',
  'UnlockImage',
  'AdminAdjust',
  'CloseAccount',
]);

export function assertValidCommand(command: TokenAccountCommand, balance: number): void {
  const untrusted: unknown = command;
  if (
    typeof untrusted !== 'object' ||
    untrusted === null ||
    !COMMAND_TYPES.has(String((untrusted as { type?: unknown }).type)) ||
    typeof (untrusted as { data?: unknown }).data !== 'object' ||
    (untrusted as { data?: unknown }).data === null
  ) {
    throw new TokenAccountRefusal('INVALID_ARGUMENT', 'not a TokenAccount command', { balance, field: 'type' });
  }
  const invalid = (field: string, why: string): never => {
    throw new TokenAccountRefusal('INVALID_ARGUMENT', `${command.type}: ${field} ${why}`, {
      balance,
      field,
    });
  };
  const instant = (field: string, value: unknown): void => {
    if (!(value instanceof Date) || Number.isNaN(value.getTime())) invalid(field, 'must be a valid Date');
  };
  const id = (field: string, value: unknown): void => {
    if (typeof value !== 'string' || value.trim().length === 0) invalid(field, 'must be a non-empty string');
  };
  const positiveTokens = (field: string, value: unknown): void => {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
      invalid(field, 'must be a positive whole number of tokens');
    }
  };

  instant('at', command.data.at);
  switch (command.type) {
    case 'SignUpGrant':
    case 'CloseAccount':
      return;
    case 'SpendForImage':
    case 'RefundImageSpend':
    case 'UnlockImage':
      id('imageId', command.data.imageId);
      return;
    case 'CreditPayment':
      id('paymentId', command.data.paymentId);
      id('packId', command.data.packId);
      id('packName', command.data.packName);
      positiveTokens('tokens', command.data.tokens);
      return;
    case 'ReversePayment':
      id('paymentId', command.data.paymentId);
      positiveTokens('tokens', command.data.tokens);
      return;
    case 'GrantPlan': {
      const { plan, billingPeriod, periodStart, periodEnd } = command.data;
      id('subscriptionId', command.data.subscriptionId);
      if (typeof plan !== 'string' || !(isTokenPlan(plan) || plan === UNLIMITED_PLAN.id)) {
        throw new TokenAccountRefusal('UNKNOWN_PLAN', `GrantPlan: no plan named '${String(plan)}'`, {
          balance,
          field: 'plan',
        });
      }
      if (!(BILLING_PERIODS as readonly unknown[]).includes(billingPeriod)) {
        invalid('billingPeriod', `must be one of ${BILLING_PERIODS.join(', ')}`);
      }
      instant('periodStart', periodStart);
      instant('periodEnd', periodEnd);
      if (periodEnd.getTime() <= periodStart.getTime()) invalid('periodEnd', 'must be after periodStart');
      return;
    }
    case 'ReversePlanGrant':
      id('subscriptionId', command.data.subscriptionId);
      id('disputeId', command.data.disputeId);
      instant('periodStart', command.data.periodStart);
      return;
    case 'EndUnlimitedPlan':
      id('subscriptionId', command.data.subscriptionId);
      return;
    case 'AdminAdjust': {
      id('adjustmentId', command.data.adjustmentId);
      id('operatorId', command.data.operatorId);
      id('reason', command.data.reason);
      const direction: unknown = command.data.direction;
      if (direction !== 'add' && direction !== 'deduct') invalid('direction', "must be 'add' or 'deduct'");
      positiveTokens('tokens', command.data.tokens);
      return;
    }
  }
}
