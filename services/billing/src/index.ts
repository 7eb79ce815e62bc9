export { billingService, createBillingService, type BillingOverrides } from './service.js';
export { Catalogue } from './app/catalogue.js';
export { signWebhook } from './app/webhook-signature.js';
