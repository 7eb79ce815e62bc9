/**
 * Events of a TokenAccount, in the product's words. Every event carries:
 * - `businessKey`: what makes it happen at most once on the account (see `businessKeys`);
 * - `amount`: tokens moved, never negative (0 for events that move nothing, and for usage
 *   charged nothing on an unlimited plan); the direction follows from the event (`balanceDelta`);
 * - `description`: the line a user reads in the transaction history;
 * - `occurredAt`: ISO-8601 instant, taken from the command. Event data is plain JSON.
 */
import type { BillingPeriod, TokenPlan } from './token-rules.js';

type Event<Type extends string, Data> = Readonly<{ type: Type; data: Readonly<Data> }>;

type Common = { businessKey: string; amount: number; description: string; occurredAt: string };

export type TokensGranted = Event<
  'TokensGranted',
  Common &
    (
      | { source: 'sign-up' }
      | {
          source: 'plan';
          subscriptionId: string;
          plan: TokenPlan;
          billingPeriod: BillingPeriod;
          periodStart: string;
          periodEnd: string;
        }
    )
>;

export type TokensSpent = Event<
  'TokensSpent',
  Common & { imageId: string; purpose: 'enhancement' | 'unlock'; unlimitedPlan: boolean }
>;

export type TokensRefunded = Event<'TokensRefunded', Common & { imageId: string }>;

export type TokensCredited = Event<'TokensCredited', Common & { paymentId: string; packId: string; packName: string }>;

/** A refunded pack's tokens taken back: `amount` is what was left of them (the balance caps it). */
export type TokensReversed = Event<
  'TokensReversed',
  Common & {
    paymentId: string;
    packName: string /** The pack's tokens; `amount` is what was taken. */;
    requested: number;
  }
>;

/**
 * A plan period's tokens taken back because its payment was disputed: `amount` is what was left of
 * them (the balance caps it), `requested` what the period granted.
 */
export type PlanTokensReversed = Event<
  'PlanTokensReversed',
  Common & {
    subscriptionId: string;
    plan: TokenPlan;
    billingPeriod: BillingPeriod;
    periodStart: string;
    disputeId: string;
    requested: number;
  }
>;

export type TokensAdjusted = Event<
  'TokensAdjusted',
  Common & {
    adjustmentId: string;
    operatorId: string;
    reason: string;
    direction: 'add' | 'deduct';
    /** What the operator asked for; `amount` is what was applied (a deduct stops at 0). */
    requested: number;
  }
>;

export type UnlimitedPlanStarted = Event<
  'UnlimitedPlanStarted',
  Common & {
    subscriptionId: string;
    billingPeriod: BillingPeriod;
    periodStart: string;
    periodEnd: string;
  }
>;

export type UnlimitedPlanEnded = Event<'UnlimitedPlanEnded', Common & { subscriptionId: string }>;

export type AccountClosed = Event<'AccountClosed', Common & { balanceAtClosing: number }>;

export type TokenAccountEvent =
  | TokensGranted
  | TokensSpent
  | TokensRefunded
  | TokensCredited
  | TokensReversed
  | PlanTokensReversed
  | TokensAdjusted
  | UnlimitedPlanStarted
  | UnlimitedPlanEnded
  | AccountClosed;

export type TokenAccountEventType = TokenAccountEvent['type'];

/** How an event changes the balance: + for credits, - for debits, 0 otherwise. */
export function balanceDelta(event: TokenAccountEvent): number {
  switch (event.type) {
    case 'TokensGranted':
    case 'TokensCredited':
    case 'TokensRefunded':
      return event.data.amount;
    case 'TokensSpent':
    case 'TokensReversed':
    case 'PlanTokensReversed':
      return -event.data.amount;
    case 'TokensAdjusted':
      return event.data.direction === 'add' ? event.data.amount : -event.data.amount;
    case 'UnlimitedPlanStarted':
    case 'UnlimitedPlanEnded':
    case 'AccountClosed':
      return 0;
  }
}

/** Business keys, one namespace per kind of effect, so ids of different kinds never collide. */
export const businessKeys = {
  signUp: () => 'sign-up',
  imageEnhancement: (imageId: string) => `image-enhancement:${imageId}`,
  enhancementRefund: (imageId: string) => `enhancement-refund:${imageId}`,
  imageUnlock: (imageId: string) => `image-unlock:${imageId}`,
  payment: (paymentId: string) => `payment:${paymentId}`,
  paymentRefund: (paymentId: string) => `payment-refund:${paymentId}`,
  planPeriod: (subscriptionId: string, periodStart: Date) =>
    `plan-period:${subscriptionId}@${periodStart.toISOString()}`,
  planPeriodReversal: (subscriptionId: string, periodStart: Date) =>
    `plan-period-reversal:${subscriptionId}@${periodStart.toISOString()}`,
  unlimitedPlanEnd: (subscriptionId: string) => `unlimited-plan-end:${subscriptionId}`,
  adjustment: (adjustmentId: string) => `adjustment:${adjustmentId}`,
  accountClosed: () => 'account-closed',
} as const;

/** What the transaction history shows for each kind of entry. */
export const descriptions = {
  signUpBonus: 'Sign-up bonus',
  imageEnhancement: 'Image enhancement',
  imageEnhancementUnlimited: 'Image enhancement (Unlimited plan)',
  imageUnlock: 'Image unlock',
  imageUnlockUnlimited: 'Image unlock (Unlimited plan)',
  enhancementRefund: 'Refund: enhancement failed',
  adjustment: 'Adjustment by support',
  accountClosed: 'Account closed',
  packPurchase: (packName: string) => `${packDisplayName(packName)} pack purchase`,
  packRefund: (packName: string) => `${packDisplayName(packName)} pack refunded`,
  planTokens: (planName: string, period: BillingPeriod) => `${planName} plan: ${period} tokens`,
  unlimitedPlanStarted: (planName: string, period: BillingPeriod) => `${planName} plan: ${period} access`,
  unlimitedPlanEnded: (planName: string) => `${planName} plan ended`,
  planReversed: (planName: string, period: BillingPeriod) => `${planName} plan (${period}) reversed: payment disputed`,
} as const;

/** 'main', 'Main', 'Main Pack' and 'main_pack' all read 'Main'. */
function packDisplayName(packName: string): string {
  const words = packName
    .replace(/[_-]+/g, ' ')
    .trim()
    .replace(/\s+pack$/i, '')
    .split(/\s+/)
    .filter((word) => word.length > 0);
  const name = words.join(' ');
  return name.charAt(0).toUpperCase() + name.slice(1);
}
