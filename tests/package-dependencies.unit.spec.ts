// The gateway reaches the services over gRPC only: it depends on no service package, so building,
// installing or loading the gateway never brings in a service (nor the image engine's onnxruntime
// and sharp). What it shares with the image service is in @flatlay/files; the process that runs
// everything at once (`npm start`) is its own package, apps/embedded.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';
import { serviceNames } from '@flatlay/platform';

const root = join(fileURLToPath(import.meta.url), '..', '..');
const servicePackages = serviceNames.map((n) => `@flatlay/${n}`);
/** What the gateway may depend on among the workspace packages. */
const gatewayMay = ['@flatlay/platform', '@flatlay/proto', '@flatlay/files'];

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

/** Every workspace package of the root package.json, by name, with its folder. */
function workspaces(): Map<string, { dir: string; manifest: Manifest }> {
  const { workspaces: dirs } = readJson<{ workspaces: string[] }>(join(root, 'package.json'));
  return new Map(
    dirs.map((dir) => {
      const manifest = readJson<Manifest>(join(root, dir, 'package.json'));
      return [manifest.name, { dir, manifest }];
    }),
  );
}

const dependencyNames = (m: Manifest) =>
  Object.keys({ ...m.dependencies, ...m.devDependencies, ...m.optionalDependencies, ...m.peerDependencies });

/** The workspace packages `name` depends on, directly or through other workspace packages. */
function workspaceClosure(name: string, all = workspaces()): Set<string> {
  const seen = new Set<string>();
  const visit = (n: string) => {
    for (const dep of dependencyNames(all.get(n)!.manifest))
      if (all.has(dep) && !seen.has(dep)) {
        seen.add(dep);
        visit(dep);
      }
  };
  visit(name);
  return seen;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** The module specifiers of a file's static imports, re-exports and dynamic imports. */
function importedSpecifiers(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/\b(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) found.push(m[1]!);
  return found;
}

const packageOf = (specifier: string) => specifier.split('/').slice(0, 2).join('/');

describe('package dependencies', () => {
  it('reads imports, re-exports and dynamic imports', () => {
    const source = [
      "import { a } from '@flatlay/image';",
      "import type { B } from '@flatlay/image/files';",
      "export { c } from './c.js';",
      "import './side-effect.js';",
      "const d = await import('@flatlay/ledger');",
    ].join('\n');
    assert.deepEqual(importedSpecifiers(source), [
      '@flatlay/image',
      '@flatlay/image/files',
      './c.js',
      './side-effect.js',
      '@flatlay/ledger',
    ]);
  });

  it('gives the gateway no service package among its dependencies, directly or through another package', () => {
    const all = workspaces();
    const gateway = all.get('@flatlay/gateway')!.manifest;
    const flatlay = dependencyNames(gateway).filter((d) => d.startsWith('@flatlay/'));
    assert.deepEqual(
      flatlay.filter((d) => !gatewayMay.includes(d)),
      [],
      `gateway/package.json may name only ${gatewayMay.join(', ')} of the workspace packages`,
    );
    const reached = [...workspaceClosure('@flatlay/gateway', all)];
    assert.deepEqual(
      reached.filter((d) => servicePackages.includes(d)),
      [],
      'the gateway reaches a service package',
    );
    // The point of the rule: no image engine (onnxruntime, sharp) under the gateway.
    for (const pkg of ['@flatlay/gateway', ...reached]) {
      const deps = dependencyNames(all.get(pkg)!.manifest);
      assert.ok(!deps.includes('onnxruntime-node') && !deps.includes('sharp'), `${pkg} brings the image engine`);
    }
  });

  it('imports no service package, and nothing outside its own package, from the gateway sources', () => {
    const gatewaySrc = join(root, 'gateway', 'src');
    const offending: string[] = [];
    for (const file of sourceFiles(gatewaySrc)) {
      for (const spec of importedSpecifiers(readFileSync(file, 'utf8'))) {
        const where = relative(root, file);
        if (spec.startsWith('.')) {
          // A relative import that leaves gateway/ reaches into another package's files.
          const target = resolve(dirname(file), spec);
          if (!target.startsWith(join(root, 'gateway') + sep)) offending.push(`${where}: ${spec}`);
        } else if (spec.startsWith('@flatlay/') && !gatewayMay.includes(packageOf(spec))) {
          offending.push(`${where}: ${spec}`);
        }
      }
    }
    assert.deepEqual(offending, [], 'the gateway calls services over gRPC, it does not import them');
  });

  it('keeps the all-in-one process in its own package, which depends on the gateway and every service', () => {
    const embedded = workspaces().get('@flatlay/embedded');
    assert.ok(embedded, 'a workspace package @flatlay/embedded');
    assert.equal(embedded.dir, 'apps/embedded');
    const deps = dependencyNames(embedded.manifest);
    for (const pkg of ['@flatlay/gateway', ...servicePackages])
      assert.ok(deps.includes(pkg), `@flatlay/embedded needs ${pkg}`);
  });

  it("copies every workspace's manifest into the image before `npm ci`", () => {
    const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
    const beforeInstall = dockerfile.slice(0, dockerfile.indexOf('RUN npm ci'));
    const copied = [...beforeInstall.matchAll(/^COPY (\S+)\/package\.json \1\/$/gm)].map((m) => m[1]);
    assert.deepEqual(copied.sort(), [...workspaces().values()].map((w) => w.dir).sort());
  });
});
