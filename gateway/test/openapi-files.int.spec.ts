// The committed document (gateway/openapi/openapi.json) and its TypeScript types are what the
// declarations make now: a route changed without `npm run api:gen` fails here (and in CI's build).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'vitest';
// @ts-expect-error: a plain ESM script without declarations
import { documentFile, generate, typesFile } from '../../scripts/openapi.mjs';

describe('generated API files', { timeout: 120_000 }, () => {
  it('are current', async () => {
    const fresh = (await generate()) as Record<string, string>;
    for (const file of [documentFile, typesFile] as string[])
      assert.equal(readFileSync(file, 'utf8'), fresh[file], `${file} is stale: run npm run api:gen`);
  });
});
