// `npm run ledger:rebuild`: replays every token account stream into fresh read models.
import { createPool, databaseUrl, loadConfig, env } from '@flatlay/platform';
import { z } from 'zod';
import { rebuildProjections } from './adapters/projection-rebuild.js';

const { DATABASE_URL } = loadConfig(z.object({ DATABASE_URL: env.url() }));
const pool = createPool(databaseUrl(DATABASE_URL, 'flatlay_ledger'));
const started = Date.now();
const result = await rebuildProjections(pool);
console.log(`Rebuilt ${result.accounts} accounts from ${result.events} events in ${Date.now() - started} ms`);
await pool.end();
