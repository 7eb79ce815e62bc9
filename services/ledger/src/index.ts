export { ledgerService } from './service.js';
