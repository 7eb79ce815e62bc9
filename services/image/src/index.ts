export { imageService } from './service.js';
