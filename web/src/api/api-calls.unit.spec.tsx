// The web app calls /api one way: through the typed client (./client), made from the types the
// gateway's declarations generate. This reads the app's sources and fails on any other way in: a
// raw request helper, a fetch or XMLHttpRequest outside the few places that must make one, a
// second openapi-fetch client, or hand-written answer types.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Every source file of the app (tests and test support left out), path relative to web/src. */
function sources(dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' && dir === root ? [] : sources(path);
    if (!/\.tsx?$/.test(entry.name) || /\.unit\.spec\.tsx?$/.test(entry.name)) return [];
    return [relative(root, path).split('\\').join('/')];
  });
}

const files = sources().map((path) => ({ path, text: readFileSync(join(root, path), 'utf8') }));
const where = (pattern: RegExp) => files.filter((f) => pattern.test(f.text)).map((f) => f.path);

describe('the web app calls /api only through the typed client', () => {
  it('reads its sources (the scan is not empty)', () => {
    assert.ok(files.some((f) => f.path === 'api/client.ts'));
    assert.ok(files.length > 50, `${files.length} files`);
  });

  it('has no raw request helper: no apiRequest/adminRequest, no fetch of an /api path', () => {
    assert.deepEqual(where(/\b(apiRequest|adminRequest)\b/), []);
    assert.deepEqual(where(/\bfetch\(\s*[`'"]\/api\//), []);
  });

  it('makes requests by other means only where they must be made so', () => {
    // The typed client's own fetch; a result download (a signed /files URL, not /api).
    assert.deepEqual(where(/\bfetch\(/).sort(), ['api/client.ts', 'features/enhance/download.ts']);
    // Uploads report progress, which only XMLHttpRequest does (their paths are typed by the document).
    assert.deepEqual(where(/\bXMLHttpRequest\b/), ['api/upload.ts']);
    // The live image stream: an EventSource cannot go through fetch.
    assert.deepEqual(where(/\bnew EventSource\(/), ['features/dashboard/image-events.ts']);
  });

  it('makes its typed clients in one place, from the generated types', () => {
    assert.deepEqual(where(/^import(?!\s+type\b)[^;]*from 'openapi-fetch'/m), ['api/client.ts']);
    assert.match(readFileSync(join(root, 'api/schema.ts'), 'utf8'), /gateway\/src\/api\/openapi-types/);
  });

  it('writes no answer type by hand: no api/types.ts, no call "not in the document"', () => {
    assert.equal(existsSync(join(root, 'api/types.ts')), false);
    assert.deepEqual(where(/api\/types'/), []);
    assert.deepEqual(where(/not in the document/i), []);
  });
});
