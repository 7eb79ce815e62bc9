// README.md's configuration table says what the config schemas say: a variable added, removed or
// reworded in a schema and not in the README fails here, and so does a variable the code reads that
// neither a schema nor the hand-kept list of scripts/docs/config-table.ts knows.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';
import { z } from 'zod';
import { fillGeneratedBlocks } from './architecture-tables.js';
import { configRows, defaultText, fieldMeta, renderConfigTable } from './config-table.js';

const root = join(fileURLToPath(import.meta.url), '..', '..', '..');

/** Variables of the machine, not of this project: the code may read them without a row. */
const notOurs = new Set(['PATH', 'HOME', 'JAVA_HOME', 'XDG_CACHE_HOME']);

/** The source files of the product, its tools, benchmarks and tests (not specs' fixtures). */
function sourceFiles(): string[] {
  const roots = ['services', 'gateway', 'apps', 'scripts', 'tests', 'web/src'];
  const skip = new Set(['node_modules', 'dist', '.infra', '.data', '.cache', 'reports', 'openapi']);
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (skip.has(name)) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|tsx|mts|mjs|js)$/.test(name) && !/\.spec\.ts$|\.d\.ts$/.test(name)) out.push(path);
    }
  };
  for (const r of roots) walk(join(root, r));
  return out;
}

/**
 * `process.env.X`, `env.X`, `import.meta.env.X`, `env['X']`, and the keys of the schemas a file
 * validates its environment with: the variables a source reads.
 */
function variablesRead(source: string): string[] {
  const names = new Set<string>();
  for (const m of source.matchAll(/\benv\.([A-Z][A-Z0-9_]*)\b/g)) names.add(m[1]!);
  for (const m of source.matchAll(/\benv\[\s*['"]([A-Z][A-Z0-9_]*)['"]\s*\]/g)) names.add(m[1]!);
  // A schema's keys where a file validates its environment (an inline schema included).
  if (/\bloadConfig\(|EnvSchema\b/.test(source))
    for (const m of source.matchAll(/^\s+([A-Z][A-Z0-9]*_[A-Z0-9_]*|PORT|HOST):\s/gm)) names.add(m[1]!);
  return [...names];
}

describe('README.md configuration table', () => {
  it('is current (npm run docs:gen rewrites it)', () => {
    const doc = readFileSync(join(root, 'README.md'), 'utf8');
    assert.equal(
      fillGeneratedBlocks(doc, { config: renderConfigTable() }, 'README.md'),
      doc,
      'run `npm run docs:gen` and commit',
    );
  });

  it('gives every variable a meaning and a default, and lists each once', () => {
    const rows = configRows();
    for (const row of rows) {
      assert.ok(row.meaning, `${row.name} has a .meta({ description }) in its schema`);
      assert.ok(row.default, `${row.name} has a default text`);
    }
    const table = renderConfigTable(rows);
    for (const row of rows)
      assert.equal(table.split(`| \`${row.name}\` |`).length - 1, 1, `${row.name} is in the table once`);
  });

  it('knows every variable the code reads', () => {
    const known = new Set(configRows().map((r) => r.name));
    const unknown: string[] = [];
    for (const file of sourceFiles())
      for (const name of variablesRead(readFileSync(file, 'utf8')))
        if (!known.has(name) && !notOurs.has(name)) unknown.push(`${name} (${relative(root, file)})`);
    assert.deepEqual(unknown, [], 'give each a .meta({ description }) in a schema, or a row in unschemaedVariables');
  });

  it('reads meaning and default through optional, default and pipe layers', () => {
    const schema = z.object({
      A: z.coerce.number().default(3).meta({ description: 'three' }),
      B: z.string().optional().meta({ description: 'maybe', default: 'unset: none' }),
      C: z
        .string()
        .default('x')
        .transform((s) => s.length)
        .meta({ description: 'piped' }),
      D: z.url(),
    });
    assert.equal(fieldMeta(schema.shape.A).description, 'three');
    assert.equal(defaultText(schema.shape.A), '`3`');
    assert.equal(defaultText(schema.shape.B), 'unset: none');
    assert.equal(defaultText(schema.shape.C), '`x`');
    assert.equal(fieldMeta(schema.shape.C).description, 'piped');
    assert.equal(defaultText(schema.shape.D), 'required');
  });

  it('puts a variable read in two places under the first, with the second group and its own words', () => {
    const first = z.object({ X: z.string().default('a').meta({ description: 'said first' }) });
    const second = z.object({ X: z.string().optional().meta({ description: 'said second' }) });
    const [row, ...rest] = configRows(
      [
        { group: 'one', schemas: [first] },
        { group: 'two', schemas: [second] },
      ],
      [],
    );
    assert.equal(rest.length, 0);
    assert.deepEqual(row, {
      name: 'X',
      group: 'one',
      readBy: ['one', 'two'],
      default: '`a`',
      meaning: 'said first; two: said second',
    });
  });

  it('finds the variables a source reads', () => {
    assert.deepEqual(
      variablesRead("process.env.A_B; const c = env.C ?? import.meta.env.VITE_D; env['E']; env.lower; config.F"),
      ['A_B', 'C', 'VITE_D', 'E'],
    );
    assert.deepEqual(
      variablesRead('loadConfig(\n  z.object({\n    NEW_ONE: z.string(),\n    PORT: env.port(1),\n  }),\n);'),
      ['NEW_ONE', 'PORT'],
    );
  });

  it('refuses a variable both in a schema and in the hand-kept list', () => {
    const schema = z.object({ X: z.string().optional().meta({ description: 'x' }) });
    assert.throws(
      () =>
        configRows([{ group: 'one', schemas: [schema] }], [{ name: 'X', group: 'tools', default: '', meaning: '' }]),
      /X is in a schema and in the hand-kept list/,
    );
  });
});
