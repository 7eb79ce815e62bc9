#!/usr/bin/env node
// The generated copies of the API's schema, made from the gateway's route declarations:
// gateway/openapi/openapi.json (the document, as /api/openapi.json serves it) and
// gateway/src/api/openapi-types.ts (its TypeScript types, by openapi-typescript, for typed
// clients: openapi-fetch). `gen` rewrites both; `check` fails when a committed copy is stale.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const repoRoot = resolve(import.meta.dirname, '..');
export const documentFile = join(repoRoot, 'gateway', 'openapi', 'openapi.json');
export const typesFile = join(repoRoot, 'gateway', 'src', 'api', 'openapi-types.ts');

/** The document and its types as the current declarations make them. */
export async function generate() {
  // The declarations are TypeScript: read them through tsx, as tests do.
  const json = execFileSync(
    process.execPath,
    [
      '--conditions=source',
      '--import',
      'tsx',
      '-e',
      "import('./gateway/src/routes/index.ts').then((m) => process.stdout.write(JSON.stringify(m.apiDocument(), null, 2) + '\\n'))",
    ],
    { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, LOG_LEVEL: 'silent' } },
  );
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  const header =
    '// Generated from gateway/openapi/openapi.json by `npm run api:gen` (openapi-typescript). Do not edit.\n';
  const types = header + astToString(await openapiTS(JSON.parse(json)));
  return { [documentFile]: json, [typesFile]: types };
}

/** @param {string} mode */
async function main(mode) {
  const files = await generate();
  if (mode === 'gen') {
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
    }
    console.log('api: wrote gateway/openapi/openapi.json and gateway/src/api/openapi-types.ts');
  } else if (mode === 'check') {
    const stale = Object.entries(files)
      .filter(([file, text]) => !existsSync(file) || readFileSync(file, 'utf8') !== text)
      .map(([file]) => file.slice(repoRoot.length + 1));
    if (stale.length) {
      console.error(
        `api: generated files are stale (${stale.join(', ')}). Run \`npm run api:gen\` and commit the result.`,
      );
      process.exit(1);
    }
    console.log('api: the committed document and types are current');
  } else {
    console.error('usage: openapi.mjs gen|check');
    process.exit(2);
  }
}

if (process.argv[1] === import.meta.filename) await main(process.argv[2] ?? 'check');
