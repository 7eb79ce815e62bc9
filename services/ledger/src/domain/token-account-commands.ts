/**
 * Commands a TokenAccount decides on. One account (one stream) per user; the user id is the
 * stream's, so commands do not repeat it. Time (`at`) and every id come in from the caller.
 */
import type { BillingPeriod, PlanId } from './token-rules.js';

type Command<Type extends string, Data> = Readonly<{ type: Type; data: Readonly<Data> }>;

/** The 200-token sign-up bonus; once per user (UserRegistered). */
export type SignUpGrant = Command<'SignUpGrant', { at: Date }>;

/** 100 tokens for enhancing one image; once per image id. Free (0) on an unlimited plan. */
export type SpendForImage = Command<'SpendForImage', { imageId: string; at: Date }>;

/** Gives back what the spend for this image charged; only after that spend, once. */
export type RefundImageSpend = Command<'RefundImageSpend', { imageId: string; at: Date }>;

/** A token pack bought: `tokens` come from billing's catalogue; once per payment id. */
export type CreditPayment = Command<
  'CreditPayment',
  { paymentId: string; packId: string; packName: string; tokens: number; at: Date }
>;

/**
 * A token pack's payment was refunded in full: take back its tokens as far as they are unspent
 * (at most the balance, never below 0); once per payment id, and only after its credit.
 */
export type ReversePayment = Command<
  'ReversePayment',
  { paymentId: string; packName: string; tokens: number; at: Date }
>;

/**
 * One billing period of a plan; once per (subscriptionId, periodStart).
 * Lite and Studio grant their tokens; Unlimited opens a window [periodStart, periodEnd)
 * in which spends and unlocks charge nothing.
 */
export type GrantPlan = Command<
  'GrantPlan',
  {
    subscriptionId: string;
    plan: PlanId;
    billingPeriod: BillingPeriod;
    periodStart: Date;
    periodEnd: Date;
    at: Date;
  }
>;

/**
 * The payment of one plan period was disputed (a chargeback): take back what that period's
 * GrantPlan gave. A token plan loses that period's tokens as far as they are unspent (at most the
 * balance, never below 0); an unlimited plan's window ends now. Once per (subscriptionId,
 * periodStart), and only after that period's GrantPlan. What was granted comes from the account's
 * own history, not from the command.
 */
export type ReversePlanGrant = Command<
  'ReversePlanGrant',
  { subscriptionId: string; periodStart: Date; disputeId: string; at: Date }
>;

/** Ends an unlimited plan before its period ends (subscription cancelled at once). */
export type EndUnlimitedPlan = Command<'EndUnlimitedPlan', { subscriptionId: string; at: Date }>;

/** 100 tokens to unlock a locked result; once per image id. Free (0) on an unlimited plan. */
export type UnlockImage = Command<'UnlockImage', { imageId: string; at: Date }>;

/** An operator adds tokens, or deducts them (never below 0); once per adjustment id. */
export type AdminAdjust = Command<
  'AdminAdjust',
  {
    adjustmentId: string;
    operatorId: string;
    reason: string;
    direction: 'add' | 'deduct';
    tokens: number;
    at: Date;
  }
>;

/** The user was deleted: history stays, nothing moves any more. */
export type CloseAccount = Command<'CloseAccount', { at: Date }>;

export type TokenAccountCommand =
  | SignUpGrant
  | SpendForImage
  | RefundImageSpend
  | CreditPayment
  | ReversePayment
  | GrantPlan
  | ReversePlanGrant
  | EndUnlimitedPlan
  | UnlockImage
  | AdminAdjust
  | CloseAccount;
