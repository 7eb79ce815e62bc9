// Composition root of the billing service as its own process.
import { runStandalone } from '@flatlay/platform';
import { billingService } from './service.js';

await runStandalone(billingService);
