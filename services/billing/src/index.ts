export { billingService } from './service.js';
