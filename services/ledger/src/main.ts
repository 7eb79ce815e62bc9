// Composition root of the ledger service as its own process.
import { runStandalone } from '@flatlay/platform';
import { ledgerService } from './service.js';

await runStandalone(ledgerService);
