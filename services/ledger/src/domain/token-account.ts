/**
 * TokenAccount: one user's token balance as a decider (emmett style).
 * decide(command, state) -> events, or throws a TokenAccountRefusal;
 * evolve(state, event) -> state; initialState(). Pure: time and ids come on the command.
 *
 * Rules (docs/decisions/0201-token-account-rules.md):
 * - the balance never goes below 0; a spend that would is refused with INSUFFICIENT_TOKENS;
 * - every command has a business key; a key already applied yields no events (idempotent);
 * - a closed account refuses every new command with ACCOUNT_CLOSED.
 */
import type {
  AdminAdjust,
  CreditPayment,
  GrantPlan,
  ReversePlanGrant,
  TokenAccountCommand,
} from './token-account-commands.js';
import { businessKeys, descriptions, type TokenAccountEvent } from './token-account-events.js';
import { TokenAccountRefusal } from './token-account-refusal.js';
import {
  IMAGE_ENHANCEMENT_COST,
  IMAGE_UNLOCK_COST,
  SIGN_UP_BONUS_TOKENS,
  TOKEN_PLANS,
  UNLIMITED_PLAN,
  isTokenPlan,
  planTokens,
} from './token-rules.js';
import { assertValidCommand } from './token-account-validation.js';
import { evolve, initialState, isUnlimitedAt, type TokenAccountState } from './token-account-state.js';

export { evolve, initialState, isUnlimitedAt, replay } from './token-account-state.js';
export type { TokenAccountState, UnlimitedPeriod } from './token-account-state.js';

/** The business key a command is idempotent by. */
export function businessKeyOf(command: TokenAccountCommand): string {
  switch (command.type) {
    case 'SignUpGrant':
      return businessKeys.signUp();
    case 'SpendForImage':
      return businessKeys.imageEnhancement(command.data.imageId);
    case 'RefundImageSpend':
      return businessKeys.enhancementRefund(command.data.imageId);
    case 'UnlockImage':
      return businessKeys.imageUnlock(command.data.imageId);
    case 'CreditPayment':
      return businessKeys.payment(command.data.paymentId);
    case 'ReversePayment':
      return businessKeys.paymentRefund(command.data.paymentId);
    case 'GrantPlan':
      return businessKeys.planPeriod(command.data.subscriptionId, command.data.periodStart);
    case 'ReversePlanGrant':
      return businessKeys.planPeriodReversal(command.data.subscriptionId, command.data.periodStart);
    case 'EndUnlimitedPlan':
      return businessKeys.unlimitedPlanEnd(command.data.subscriptionId);
    case 'AdminAdjust':
      return businessKeys.adjustment(command.data.adjustmentId);
    case 'CloseAccount':
      return businessKeys.accountClosed();
  }
}

export function decide(command: TokenAccountCommand, state: TokenAccountState): TokenAccountEvent[] {
  assertValidCommand(command, state.balance);
  const businessKey = businessKeyOf(command);
  if (state.appliedKeys.has(businessKey)) return [];
  if (state.status === 'closed') {
    throw new TokenAccountRefusal('ACCOUNT_CLOSED', `${command.type}: the token account is closed`, {
      balance: state.balance,
    });
  }
  const occurredAt = command.data.at.toISOString();
  const common = { businessKey, occurredAt };

  switch (command.type) {
    case 'SignUpGrant':
      return [
        {
          type: 'TokensGranted',
          data: { ...common, source: 'sign-up', amount: SIGN_UP_BONUS_TOKENS, description: descriptions.signUpBonus },
        },
      ];
    case 'SpendForImage':
    case 'UnlockImage': {
      const purpose = command.type === 'SpendForImage' ? 'enhancement' : 'unlock';
      const unlimitedPlan = isUnlimitedAt(state, command.data.at);
      const price = purpose === 'enhancement' ? IMAGE_ENHANCEMENT_COST : IMAGE_UNLOCK_COST;
      const amount = unlimitedPlan ? 0 : price;
      if (state.balance < amount) {
        throw new TokenAccountRefusal(
          'INSUFFICIENT_TOKENS',
          `${command.type}: needs ${amount} tokens, the balance is ${state.balance}`,
          { balance: state.balance, required: amount },
        );
      }
      const description =
        purpose === 'enhancement'
          ? unlimitedPlan
            ? descriptions.imageEnhancementUnlimited
            : descriptions.imageEnhancement
          : unlimitedPlan
            ? descriptions.imageUnlockUnlimited
            : descriptions.imageUnlock;
      return [
        {
          type: 'TokensSpent',
          data: { ...common, imageId: command.data.imageId, purpose, unlimitedPlan, amount, description },
        },
      ];
    }
    case 'RefundImageSpend': {
      const charged = state.imageSpends.get(command.data.imageId);
      if (charged === undefined) {
        throw new TokenAccountRefusal(
          'SPEND_NOT_FOUND',
          `RefundImageSpend: no enhancement spend for image ${command.data.imageId}`,
          { balance: state.balance, field: 'imageId' },
        );
      }
      return [
        {
          type: 'TokensRefunded',
          data: {
            ...common,
            imageId: command.data.imageId,
            amount: charged,
            description: descriptions.enhancementRefund,
          },
        },
      ];
    }
    case 'CreditPayment':
      return [creditPayment(command, common)];
    case 'ReversePayment': {
      const { paymentId, packName, tokens } = command.data;
      if (!state.appliedKeys.has(businessKeys.payment(paymentId))) {
        throw new TokenAccountRefusal('PAYMENT_NOT_FOUND', `ReversePayment: no credit for payment ${paymentId}`, {
          balance: state.balance,
          field: 'paymentId',
        });
      }
      // What is left of the pack: tokens already spent stay spent, the balance never goes below 0.
      const amount = Math.min(tokens, state.balance);
      return [
        {
          type: 'TokensReversed',
          data: {
            ...common,
            paymentId,
            packName,
            requested: tokens,
            amount,
            description: descriptions.packRefund(packName || 'token'),
          },
        },
      ];
    }
    case 'GrantPlan':
      return [grantPlan(command, common)];
    case 'ReversePlanGrant':
      return [reversePlanGrant(command, common, state)];
    case 'EndUnlimitedPlan':
      return [
        {
          type: 'UnlimitedPlanEnded',
          data: {
            ...common,
            subscriptionId: command.data.subscriptionId,
            amount: 0,
            description: descriptions.unlimitedPlanEnded(UNLIMITED_PLAN.name),
          },
        },
      ];
    case 'AdminAdjust':
      return [adjust(command, common, state.balance)];
    case 'CloseAccount':
      return [
        {
          type: 'AccountClosed',
          data: { ...common, amount: 0, balanceAtClosing: state.balance, description: descriptions.accountClosed },
        },
      ];
  }
}

type Common = { businessKey: string; occurredAt: string };

function creditPayment(command: CreditPayment, common: Common): TokenAccountEvent {
  const { paymentId, packId, packName, tokens } = command.data;
  return {
    type: 'TokensCredited',
    data: { ...common, paymentId, packId, packName, amount: tokens, description: descriptions.packPurchase(packName) },
  };
}

function grantPlan(command: GrantPlan, common: Common): TokenAccountEvent {
  const { subscriptionId, plan, billingPeriod } = command.data;
  const periodStart = command.data.periodStart.toISOString();
  const periodEnd = command.data.periodEnd.toISOString();
  if (!isTokenPlan(plan)) {
    return {
      type: 'UnlimitedPlanStarted',
      data: {
        ...common,
        subscriptionId,
        billingPeriod,
        periodStart,
        periodEnd,
        amount: 0,
        description: descriptions.unlimitedPlanStarted(UNLIMITED_PLAN.name, billingPeriod),
      },
    };
  }
  return {
    type: 'TokensGranted',
    data: {
      ...common,
      source: 'plan',
      subscriptionId,
      plan,
      billingPeriod,
      periodStart,
      periodEnd,
      amount: planTokens(plan, billingPeriod),
      description: descriptions.planTokens(TOKEN_PLANS[plan].name, billingPeriod),
    },
  };
}

function reversePlanGrant(command: ReversePlanGrant, common: Common, state: TokenAccountState): TokenAccountEvent {
  const { subscriptionId, periodStart, disputeId } = command.data;
  const grant = state.planGrants.get(businessKeys.planPeriod(subscriptionId, periodStart));
  if (grant === undefined) {
    throw new TokenAccountRefusal(
      'PLAN_GRANT_NOT_FOUND',
      `ReversePlanGrant: no grant for subscription ${subscriptionId} period ${periodStart.toISOString()}`,
      { balance: state.balance, field: 'periodStart' },
    );
  }
  if (!isTokenPlan(grant.plan)) {
    // Unlimited: the window ends now, as an immediate cancellation would end it.
    return {
      type: 'UnlimitedPlanEnded',
      data: {
        ...common,
        subscriptionId,
        amount: 0,
        description: descriptions.planReversed(UNLIMITED_PLAN.name, grant.billingPeriod),
      },
    };
  }
  // What is left of the period's tokens: tokens already spent stay spent, the balance never goes below 0.
  return {
    type: 'PlanTokensReversed',
    data: {
      ...common,
      subscriptionId,
      plan: grant.plan,
      billingPeriod: grant.billingPeriod,
      periodStart: periodStart.toISOString(),
      disputeId,
      requested: grant.tokens,
      amount: Math.min(grant.tokens, state.balance),
      description: descriptions.planReversed(TOKEN_PLANS[grant.plan].name, grant.billingPeriod),
    },
  };
}

function adjust(command: AdminAdjust, common: Common, balance: number): TokenAccountEvent {
  const { adjustmentId, operatorId, reason, direction, tokens } = command.data;
  // A deduct never takes the balance below 0: it takes what there is, at most.
  const amount = direction === 'add' ? tokens : Math.min(tokens, balance);
  return {
    type: 'TokensAdjusted',
    data: {
      ...common,
      adjustmentId,
      operatorId,
      reason,
      direction,
      requested: tokens,
      amount,
      description: descriptions.adjustment,
    },
  };
}

export const tokenAccount = { decide, evolve, initialState } as const;
