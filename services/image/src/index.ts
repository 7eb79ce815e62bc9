export {
  createImageService,
  createGenerationWorkerService,
  imageService,
  type ImageServiceOptions,
} from './service.js';
