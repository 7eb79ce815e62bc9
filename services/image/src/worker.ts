// Composition root of the generation worker as its own process (the chart's image-worker):
// consumes image.generation.requested.v1, runs the engine in a worker thread, serves gRPC health.
import { runStandalone } from '@flatlay/platform';
import { createGenerationWorkerService } from './service.js';

await runStandalone(createGenerationWorkerService());
