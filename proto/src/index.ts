// The one place protobuf types live. Each namespace is one proto package.
export * as events from './events.js';
export * as identity from './gen/flatlay/identity/v1/identity_service.js';
export * as ledger from './gen/flatlay/ledger/v1/ledger_service.js';
export * as image from './gen/flatlay/image/v1/image_service.js';
export * as billing from './gen/flatlay/billing/v1/billing_service.js';
export * as analytics from './gen/flatlay/analytics/v1/analytics_service.js';
export { topics, eventTypes } from './events.js';
