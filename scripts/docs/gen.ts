// `npm run docs:gen`: rewrites the generated blocks of docs/ARCHITECTURE.md from the registry and
// the event .proto files (scripts/docs/architecture-tables.ts says why), and README.md's
// configuration table from the config schemas (scripts/docs/config-table.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fillGeneratedBlocks, generatedBlocks } from './architecture-tables.js';
import { renderConfigTable } from './config-table.js';

const root = join(fileURLToPath(import.meta.url), '..', '..', '..');

function rewrite(file: string, blocks: Record<string, string>): void {
  const path = join(root, file);
  const before = readFileSync(path, 'utf8');
  const after = fillGeneratedBlocks(before, blocks, file);
  if (after === before) console.log(`${file}: generated blocks are current`);
  else {
    writeFileSync(path, after);
    console.log(`${file}: generated blocks rewritten`);
  }
}

rewrite(join('docs', 'ARCHITECTURE.md'), generatedBlocks(join(root, 'proto', 'flatlay', 'events', 'v1')));
rewrite('README.md', { config: renderConfigTable() });
