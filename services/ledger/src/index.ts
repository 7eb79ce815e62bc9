export { ledgerService } from './service.js';
export * from './domain/index.js';
