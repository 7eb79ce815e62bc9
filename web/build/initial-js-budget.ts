import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Manifest, Plugin } from 'vite';

/**
 * What a first visit to / may download before the page runs: the entry chunk and every chunk it
 * imports statically, gzipped as the gateway sends them (the .gz files of ./precompress, level 9).
 * The public pages are part of it (they are imported eagerly, for hydration); everything a page
 * loads on demand (the signed-in app, admin, checkout, the HEIC converter) is not (ADR 0715).
 *
 * Issue 31 asks for 100 KB. On React it was not met (115.6 KB: React, ReactDOM, the router,
 * react-query and the typed fetch client alone were 92.2 KB, ADR 0715); the build runs on Preact
 * through preact/compat since ADR 0718 (58.7 KB in 11 files), so the budget is the issue's.
 */
export const INITIAL_JS_BUDGET_BYTES = 100 * 1024;

/**
 * Modules that must never be in the initial JavaScript: each is a chunk of its own (a dynamic
 * import) outside the entry's static imports. A static import of one of them from a public page
 * would put it, and what it imports, into every first visit.
 */
export const DEFERRED_MODULES = [
  'src/pages/DashboardPage.tsx',
  'src/pages/AccountPage.tsx',
  'src/pages/SettingsPage.tsx',
  'src/pages/AdminPage.tsx',
  'src/pages/CheckoutPage.tsx',
  'src/pages/SubscribePage.tsx',
  'src/pages/SubscriptionCheckoutPage.tsx',
  'src/features/enhance/heic-convert.ts',
] as const;

export interface ChunkSize {
  /** The manifest's key: the source module the chunk is named after. */
  key: string;
  file: string;
  gzipBytes: number;
}

export interface InitialJsReport {
  ok: boolean;
  totalBytes: number;
  chunks: ChunkSize[];
  /** One line for a person: the total, and, when the check fails, what made it fail. */
  message: string;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * Checks Vite's build manifest: the entry chunks and their static imports (recursively), each
 * measured by `gzipBytes(file)`, against `budget`; and that none of `deferred` is among them or
 * missing as a chunk of its own. Pure: the plugin below gives it the real manifest and files.
 */
export function checkInitialJs(
  manifest: Manifest,
  gzipBytes: (file: string) => number,
  { budget = INITIAL_JS_BUDGET_BYTES, deferred = DEFERRED_MODULES as readonly string[] } = {},
): InitialJsReport {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    for (const dep of manifest[key].imports ?? []) visit(dep);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key);
  const chunks = [...seen]
    .filter((key) => manifest[key]?.file.endsWith('.js'))
    .map((key) => ({ key, file: manifest[key]!.file, gzipBytes: gzipBytes(manifest[key]!.file) }))
    .sort((a, b) => b.gzipBytes - a.gzipBytes);
  const totalBytes = chunks.reduce((sum, c) => sum + c.gzipBytes, 0);
  const initialFiles = new Set(chunks.map((c) => c.file));
  const problems: string[] = [];
  if (seen.size === 0) problems.push('the manifest has no entry chunk');
  if (totalBytes > budget)
    problems.push(
      `${kb(totalBytes)} is over the budget of ${kb(budget)}; the chunks: ${chunks
        .map((c) => `${c.file} (${c.key}) ${kb(c.gzipBytes)}`)
        .join(', ')}`,
    );
  for (const module of deferred) {
    const chunk = manifest[module];
    if (!chunk?.isDynamicEntry) problems.push(`${module} is not a chunk of its own (imported statically somewhere)`);
    else if (initialFiles.has(chunk.file)) problems.push(`${module} (${chunk.file}) is in the initial JavaScript`);
  }
  const summary = `initial JS of / (entry and its static imports, gzipped): ${kb(totalBytes)} in ${chunks.length} files (budget ${kb(budget)})`;
  return {
    ok: problems.length === 0,
    totalBytes,
    chunks,
    message: problems.length ? `${summary}\n${problems.map((p) => `  - ${p}`).join('\n')}` : summary,
  };
}

/**
 * Fails the build when the initial JavaScript of / is over budget or holds a deferred module.
 * Reads the manifest Vite writes (build.manifest, enabled here) once the files are written.
 */
export function initialJsBudget(): Plugin {
  let outDir = 'dist';
  let manifestFile = '.vite/manifest.json';
  return {
    name: 'flatlay-initial-js-budget',
    apply: 'build',
    config: () => ({ build: { manifest: true } }),
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
      if (typeof config.build.manifest === 'string') manifestFile = config.build.manifest;
    },
    async writeBundle(options) {
      const dir = options.dir ?? outDir;
      const manifest = JSON.parse(await readFile(join(dir, manifestFile), 'utf8')) as Manifest;
      const files = new Map<string, Buffer>();
      for (const chunk of Object.values(manifest))
        if (chunk.file.endsWith('.js')) files.set(chunk.file, await readFile(join(dir, chunk.file)));
      const report = checkInitialJs(manifest, (file) => gzipSync(files.get(file) ?? '', { level: 9 }).length);
      if (!report.ok) this.error(report.message);
      this.info(report.message);
    },
  };
}
