import assert from 'node:assert/strict';
import type { Manifest } from 'vite';
import { describe, it } from 'vitest';
import { checkInitialJs } from './initial-js-budget';

// A manifest shaped as Vite writes it: the entry, a vendor chunk it imports statically, and two
// pages it imports dynamically (one of them with a chunk of its own that only it imports).
const manifest: Manifest = {
  'index.html': {
    file: 'assets/index-a1.js',
    src: 'index.html',
    isEntry: true,
    imports: ['_react-b2.js'],
    dynamicImports: ['src/pages/AdminPage.tsx', 'src/features/enhance/heic-convert.ts'],
    css: ['assets/index-c3.css'],
  },
  '_react-b2.js': { file: 'assets/react-b2.js', name: 'react' },
  'src/pages/AdminPage.tsx': {
    file: 'assets/AdminPage-d4.js',
    src: 'src/pages/AdminPage.tsx',
    isDynamicEntry: true,
    imports: ['_react-b2.js', '_recharts-e5.js'],
  },
  '_recharts-e5.js': { file: 'assets/recharts-e5.js', name: 'recharts' },
  'src/features/enhance/heic-convert.ts': {
    file: 'assets/heic-convert-f6.js',
    src: 'src/features/enhance/heic-convert.ts',
    isDynamicEntry: true,
  },
};
const sizes: Record<string, number> = {
  'assets/index-a1.js': 60 * 1024,
  'assets/react-b2.js': 30 * 1024,
  'assets/AdminPage-d4.js': 50 * 1024,
  'assets/recharts-e5.js': 100 * 1024,
  'assets/heic-convert-f6.js': 700 * 1024,
};
const size = (file: string) => sizes[file] ?? 0;
const deferred = ['src/pages/AdminPage.tsx', 'src/features/enhance/heic-convert.ts'];

describe('the initial JavaScript budget of /', () => {
  it('counts the entry and its static imports only, and passes under the budget', () => {
    const report = checkInitialJs(manifest, size, { budget: 100 * 1024, deferred });
    assert.equal(report.ok, true, report.message);
    assert.equal(report.totalBytes, 90 * 1024);
    assert.deepEqual(
      report.chunks.map((c) => c.file),
      ['assets/index-a1.js', 'assets/react-b2.js'],
    );
    assert.match(report.message, /90\.0 KB in 2 files \(budget 100\.0 KB\)/);
  });

  it('fails over the budget with a message naming every initial chunk and its size', () => {
    const report = checkInitialJs(manifest, size, { budget: 80 * 1024, deferred });
    assert.equal(report.ok, false);
    assert.match(report.message, /90\.0 KB is over the budget of 80\.0 KB/);
    assert.match(report.message, /assets\/index-a1\.js \(index\.html\) 60\.0 KB/);
    assert.match(report.message, /assets\/react-b2\.js \(_react-b2\.js\) 30\.0 KB/);
    assert.doesNotMatch(report.message, /AdminPage|recharts|heic/);
  });

  it('fails when a deferred page is imported statically by the entry, even under the budget', () => {
    // The admin page pulled into the entry's static imports (a public page importing it eagerly).
    const leaked: Manifest = {
      ...manifest,
      'index.html': { ...manifest['index.html']!, imports: ['_react-b2.js', 'src/pages/AdminPage.tsx'] },
    };
    const report = checkInitialJs(leaked, size, { budget: 1024 * 1024, deferred });
    assert.equal(report.ok, false);
    assert.match(
      report.message,
      /src\/pages\/AdminPage\.tsx \(assets\/AdminPage-d4\.js\) is in the initial JavaScript/,
    );
    assert.ok(
      report.chunks.some((c) => c.file === 'assets/recharts-e5.js'),
      'and what it imports is counted',
    );
  });

  it('fails when a deferred module has no chunk of its own (bundled into another)', () => {
    const { 'src/features/enhance/heic-convert.ts': _gone, ...merged } = manifest;
    const report = checkInitialJs(merged, size, { budget: 1024 * 1024, deferred });
    assert.equal(report.ok, false);
    assert.match(report.message, /src\/features\/enhance\/heic-convert\.ts is not a chunk of its own/);
  });
});
