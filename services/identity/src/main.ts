// Composition root of the identity service as its own process.
import { runStandalone } from '@flatlay/platform';
import { identityService } from './service.js';

await runStandalone(identityService);
