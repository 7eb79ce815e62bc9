// Which unit test files replace modules with vi.mock / vi.doMock. vitest empties its registry of
// mocked modules only between isolated files, so these files stay out of the `unit` project,
// whose files share a process (vitest.config.ts, scripts/test/fresh-file.ts): in it, one file's
// mock would answer the next file's import of the real module.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SPEC_ROOTS, specFiles } from './spec-files.mjs';

const MOCKS = /\bvi\s*\.\s*(?:mock|doMock)\s*\(/;
const UNIT_SPEC = /\.unit\.spec\.tsx?$/;

/** Whether a test file's source registers a module mock. */
export function mocksModules(source: string): boolean {
  return MOCKS.test(source);
}

/** The unit spec files under `roots` of `root` (scripts/test/spec-files.mjs) that mock modules, as paths relative to `root`. */
export function unitFilesThatMock(root: string, roots: readonly string[] = SPEC_ROOTS): string[] {
  return specFiles(root, { pattern: UNIT_SPEC, roots }).filter((file) =>
    mocksModules(readFileSync(join(root, file), 'utf8')),
  );
}
