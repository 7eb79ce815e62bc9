export { identityService } from './service.js';
