// `npm run docs:gen`: rewrites the generated blocks of docs/ARCHITECTURE.md from the registry and
// the event .proto files (scripts/docs/architecture-tables.ts says why).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fillGeneratedBlocks, generatedBlocks } from './architecture-tables.js';

const root = join(fileURLToPath(import.meta.url), '..', '..', '..');
const docPath = join(root, 'docs', 'ARCHITECTURE.md');
const before = readFileSync(docPath, 'utf8');
const after = fillGeneratedBlocks(before, generatedBlocks(join(root, 'proto', 'flatlay', 'events', 'v1')));
if (after === before) console.log('docs/ARCHITECTURE.md: generated blocks are current');
else {
  writeFileSync(docPath, after);
  console.log('docs/ARCHITECTURE.md: generated blocks rewritten');
}
