#!/usr/bin/env node
// `npm run k8s:matrix`: the k8s tier (tests/k8s) on every supported Kubernetes release
// (VERSIONS.kubernetesMatrix, the three newest minors), one after the other. Each release's
// binaries are built once per machine and cached outside the clone (ADR 0302).
//   npm run k8s:matrix                 every pinned release
//   npm run k8s:matrix -- v1.36.3      only the ones named
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { install, VERSIONS } from './infra.mjs';
import { installControlPlane } from './infra/kube-tools.mjs';
import { repoRoot } from './lib/steps.mjs';

const wanted = process.argv.slice(2);
const versions = wanted.length ? wanted : VERSIONS.kubernetesMatrix;
await install();
const results = [];
for (const version of versions) {
  const t = Date.now();
  await installControlPlane(version);
  console.log(`› Kubernetes ${version}: the k8s tier`);
  const r = spawnSync(
    process.execPath,
    [
      join(repoRoot, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      '--config',
      join(repoRoot, 'vitest.config.ts'),
      'tests/k8s',
    ],
    {
      cwd: repoRoot,
      stdio: 'inherit',
      env: { ...process.env, FLATLAY_KUBE_VERSION: version, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
    },
  );
  results.push({ version, ok: r.status === 0, seconds: Math.round((Date.now() - t) / 1000) });
}
for (const r of results) console.log(`${r.ok ? 'pass' : 'FAIL'}  Kubernetes ${r.version}  ${r.seconds} s`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
