// Composition root of the image service as its own process.
import { runStandalone } from '@flatlay/platform';
import { imageService } from './service.js';

await runStandalone(imageService);
