export { billingService, createBillingService, type BillingOverrides } from './service.js';
export { Catalogue } from './catalogue/catalogue.js';
export { signWebhook } from './app/webhook-signature.js';
