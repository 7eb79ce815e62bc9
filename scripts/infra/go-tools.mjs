// Tools built with `go install` into .infra/bin: stripe-mock and kubeconform; helm is linked there
// from the build of the tools on Kubernetes' libraries (kube-family.mjs).

import fs from 'node:fs';
import path from 'node:path';
import { installKubeFamily } from './kube-family.mjs';
import { BIN, HELM_BIN, VERSIONS } from './layout.mjs';
import { log } from './log.mjs';
import { goCompile } from './go-env.mjs';
import { exists, which } from './process.mjs';

/** `go install <pkg>@<version>` into .infra/bin, skipped when that version is already there. */
/** @param {string} name @param {string} pkg @param {string} version */
export async function installGoTool(name, pkg, version) {
  const bin = path.join(BIN, name);
  const marker = path.join(BIN, `.${name}.version`);
  if (exists(bin) && exists(marker) && fs.readFileSync(marker, 'utf8') === version) {
    log(`${name} ${version}: cached in .infra/bin`);
    return;
  }
  if (!which('go')) throw new Error(`go is required to build ${name}`);
  log(`${name} ${version}: go install`);
  const t = Date.now();
  fs.mkdirSync(BIN, { recursive: true });
  await goCompile('install', [`${pkg}@${version}`], { env: { GOBIN: BIN } });
  fs.writeFileSync(marker, version);
  log(`${name}: built in ${((Date.now() - t) / 1000).toFixed(1)} s`);
}

export const installStripeMock = () =>
  installGoTool('stripe-mock', 'github.com/stripe/stripe-mock', VERSIONS.stripeMock);
// Kubernetes tooling for tests/chart.int.spec.ts (lint, render, schema-check the Helm chart offline).
export async function installHelm() {
  linkTool(HELM_BIN, path.join(await installKubeFamily(), 'helm'));
}

/** Points `link` (in .infra/bin, inside the clone) at a binary in the cache outside it. */
/** @param {string} link @param {string} target */
export function linkTool(link, target) {
  fs.mkdirSync(path.dirname(link), { recursive: true });
  fs.rmSync(link, { force: true });
  fs.symlinkSync(target, link);
}
export const installKubeconform = () =>
  installGoTool('kubeconform', 'github.com/yannh/kubeconform/cmd/kubeconform', VERSIONS.kubeconform);
