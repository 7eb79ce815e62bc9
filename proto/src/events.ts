// flatlay.events.v1: the envelope and every event message, gathered from their files.
export * from './gen/flatlay/events/v1/envelope.js';
export { ServiceStarted } from './gen/flatlay/events/v1/platform.js';
