import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { mocksModules, unitFilesThatMock } from './module-mocks.js';
import { specFiles } from './spec-files.mjs';

describe('unit files that mock modules (kept out of the shared-process project)', () => {
  const root = mkdtempSync(join(tmpdir(), 'flatlay-mocks-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('recognises vi.mock and vi.doMock, and not vi.fn or a mention in a comment without a call', () => {
    assert.equal(mocksModules("vi.mock('./pixels', () => ({}));"), true);
    assert.equal(mocksModules('vi.doMock("../x")'), true);
    assert.equal(mocksModules('vi\n  .mock("./a")'), true);
    assert.equal(mocksModules('const f = vi.fn(); vi.spyOn(a, "b");'), false);
    assert.equal(mocksModules('// the registry of vi.mock calls'), false);
  });

  it('lists only unit spec files that mock, under the given folders, skipping node_modules and dist', () => {
    const put = (path: string, text: string) => {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    put('web/src/a.unit.spec.tsx', "vi.mock('./b');");
    put('web/src/b.unit.spec.tsx', 'vi.fn();');
    put('web/src/c.int.spec.ts', "vi.mock('./b');");
    put('web/node_modules/d/e.unit.spec.ts', "vi.mock('./b');");
    put('services/x/f.unit.spec.ts', "vi.doMock('./g');");
    put('other/h.unit.spec.ts', "vi.mock('./b');");
    put('web/dist/i.unit.spec.ts', "vi.mock('./b');");
    assert.deepEqual(unitFilesThatMock(root, ['web', 'services']), [
      'services/x/f.unit.spec.ts',
      'web/src/a.unit.spec.tsx',
    ]);
  });

  it("looks where npm test looks: every folder of the repository's tests", () => {
    const repo = join(import.meta.dirname, '..', '..');
    const mocking = unitFilesThatMock(repo);
    assert.ok(mocking.includes('scripts/test/module-mocks.unit.spec.ts'), 'this file mentions vi.mock in a call');
    assert.deepEqual(
      mocking.filter((file) => !specFiles(repo).includes(file)),
      [],
      'every file it names is one npm test runs',
    );
  });
});
