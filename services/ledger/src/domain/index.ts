export * from './token-rules.js';
export * from './token-account-commands.js';
export * from './token-account-events.js';
export * from './token-account-refusal.js';
export * from './token-account.js';
export * from './persistent-collections.js';
