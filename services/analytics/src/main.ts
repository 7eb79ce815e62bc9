// Composition root of the analytics service as its own process.
import { runStandalone } from '@flatlay/platform';
import { analyticsService } from './service.js';

await runStandalone(analyticsService);
