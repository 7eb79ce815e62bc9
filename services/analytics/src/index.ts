export { analyticsService, createAnalyticsService, type AnalyticsOptions } from './service.js';
export { analyticsEventHandler } from './consumers/analytics-consumer.js';
