// Which unit test files replace modules with vi.mock / vi.doMock. vitest empties its registry of
// mocked modules only between isolated files, so these files stay out of the `unit` project,
// whose files share a process (vitest.config.ts, scripts/test/fresh-file.ts): in it, one file's
// mock would answer the next file's import of the real module.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const MOCKS = /\bvi\s*\.\s*(?:mock|doMock)\s*\(/;
const UNIT_SPEC = /\.unit\.spec\.tsx?$/;

/** Whether a test file's source registers a module mock. */
export function mocksModules(source: string): boolean {
  return MOCKS.test(source);
}

/** The unit spec files under `dirs` (relative to `root`, node_modules and dot folders left out) that mock modules, as paths relative to `root`. */
export function unitFilesThatMock(root: string, dirs: string[]): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (UNIT_SPEC.test(name) && mocksModules(readFileSync(path, 'utf8'))) found.push(relative(root, path));
    }
  };
  for (const dir of dirs) walk(join(root, dir));
  return found.sort();
}
