export * from './credentials.js';
export * from './profile.js';
export * from './plan.js';
export * from './external-sign-in.js';
export * from './consent.js';
export * from './account-links.js';
export * from './account-deletion.js';
