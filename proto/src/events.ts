// flatlay.events.v1: the envelope and every event message, gathered from their files.
export * from './gen/flatlay/events/v1/envelope.js';
export { ServiceStarted } from './gen/flatlay/events/v1/platform.js';
export { UserRegistered, UserProfileChanged, UserPlanChanged, UserDeleted } from './gen/flatlay/events/v1/identity.js';
export {
  TokensGranted,
  TokensSpent,
  TokensRefunded,
  TokensCredited,
  TokensReversed,
  TokensAdjusted,
  AccountClosed,
} from './gen/flatlay/events/v1/ledger.js';
export {
  PaymentSucceeded,
  ImageUnlockPaid,
  AnonymousEnhancementPaid,
  PaymentRefunded,
  PaymentDisputed,
  SubscriptionActivated,
  SubscriptionRenewed,
  SubscriptionCanceled,
  SubscriptionStatusChanged,
  PlanPeriodReversed,
} from './gen/flatlay/events/v1/billing.js';
export {
  GenerationOptions,
  GenerationRequested,
  GenerationCompleted,
  GenerationFailed,
  ImageUnlocked,
} from './gen/flatlay/events/v1/image.js';
export { SettingsChanged, SettingValue } from './gen/flatlay/events/v1/analytics.js';

/** Topics, one per publishing service and aggregate, keyed by aggregate id. */
export const topics = {
  identityUser: 'identity.user.v1',
  ledgerAccount: 'ledger.account.v1',
  billingPayment: 'billing.payment.v1',
  billingSubscription: 'billing.subscription.v1',
  imageGeneration: 'image.generation.v1',
  imageGenerationRequested: 'image.generation.requested.v1',
  analyticsSettings: 'analytics.settings.v1',
} as const;

/** The envelope `type` of each event: its fully qualified protobuf name. */
export const eventTypes = {
  UserRegistered: 'flatlay.events.v1.UserRegistered',
  UserProfileChanged: 'flatlay.events.v1.UserProfileChanged',
  UserPlanChanged: 'flatlay.events.v1.UserPlanChanged',
  UserDeleted: 'flatlay.events.v1.UserDeleted',
  TokensGranted: 'flatlay.events.v1.TokensGranted',
  TokensSpent: 'flatlay.events.v1.TokensSpent',
  TokensRefunded: 'flatlay.events.v1.TokensRefunded',
  TokensCredited: 'flatlay.events.v1.TokensCredited',
  TokensReversed: 'flatlay.events.v1.TokensReversed',
  TokensAdjusted: 'flatlay.events.v1.TokensAdjusted',
  AccountClosed: 'flatlay.events.v1.AccountClosed',
  PaymentSucceeded: 'flatlay.events.v1.PaymentSucceeded',
  ImageUnlockPaid: 'flatlay.events.v1.ImageUnlockPaid',
  AnonymousEnhancementPaid: 'flatlay.events.v1.AnonymousEnhancementPaid',
  PaymentRefunded: 'flatlay.events.v1.PaymentRefunded',
  PaymentDisputed: 'flatlay.events.v1.PaymentDisputed',
  SubscriptionActivated: 'flatlay.events.v1.SubscriptionActivated',
  SubscriptionRenewed: 'flatlay.events.v1.SubscriptionRenewed',
  SubscriptionCanceled: 'flatlay.events.v1.SubscriptionCanceled',
  SubscriptionStatusChanged: 'flatlay.events.v1.SubscriptionStatusChanged',
  PlanPeriodReversed: 'flatlay.events.v1.PlanPeriodReversed',
  GenerationRequested: 'flatlay.events.v1.GenerationRequested',
  GenerationCompleted: 'flatlay.events.v1.GenerationCompleted',
  GenerationFailed: 'flatlay.events.v1.GenerationFailed',
  ImageUnlocked: 'flatlay.events.v1.ImageUnlocked',
  SettingsChanged: 'flatlay.events.v1.SettingsChanged',
} as const;
