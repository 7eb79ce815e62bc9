export { analyticsService } from './service.js';
