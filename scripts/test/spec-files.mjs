// Where the test files are, and how they are found: one walk for `npm test` (scripts/test.mjs, which
// picks the files of each tier) and for vitest.config.ts (which keeps the unit files that mock
// modules out of the shared-process project, scripts/test/module-mocks.ts).
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The folders under the repository's root that hold test files. */
export const SPEC_ROOTS = ['proto', 'services', 'gateway', 'apps', 'web', 'tests', 'scripts'];

/** A test file's name: its tier before `.spec.ts` or `.spec.tsx`. */
export const SPEC_FILE = /\.(unit|int|e2e|k8s|fault|container)\.spec\.tsx?$/;

/**
 * The test files under `root`'s SPEC_ROOTS (or `roots`) whose names match `pattern` (any tier by
 * default), as paths relative to `root`, sorted; node_modules, dist and dot folders left out.
 * @param {string} root @param {{ pattern?: RegExp, roots?: readonly string[] }} [options]
 * @returns {string[]}
 */
export function specFiles(root, { pattern = SPEC_FILE, roots = SPEC_ROOTS } = {}) {
  /** @type {string[]} */
  const found = [];
  /** @param {string} dir */
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (pattern.test(name)) found.push(relative(root, path));
    }
  };
  for (const dir of roots) walk(join(root, dir));
  return found.sort();
}
