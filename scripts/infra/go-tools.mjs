// The Go tools' links in .infra/bin: each binary is made once per machine by the one Go build of
// every test tool (kube-family.mjs, ADR 0307 and 0308), outside the clone, and each clone links it.

import fs from 'node:fs';
import path from 'node:path';
import { installKubeFamily } from './kube-family.mjs';
import { HELM_BIN, KUBECONFORM_BIN, STRIPE_MOCK_BIN } from './layout.mjs';

/** Points `link` (in .infra/bin, inside the clone) at a binary in the cache outside it. */
/** @param {string} link @param {string} target */
export function linkTool(link, target) {
  fs.mkdirSync(path.dirname(link), { recursive: true });
  fs.rmSync(link, { force: true });
  fs.symlinkSync(target, link);
}

/**
 * Links the one build's binary `name` to `link`, building the tools first where this machine has
 * not yet; answers the link.
 * @param {string} link @param {string} name
 */
export async function linkGoTool(link, name) {
  linkTool(link, path.join(await installKubeFamily(), name));
  return link;
}

export const installStripeMock = () => linkGoTool(STRIPE_MOCK_BIN, 'stripe-mock');
// Kubernetes tooling for tests/chart.int.spec.ts (lint, render, schema-check the Helm chart offline).
export const installHelm = () => linkGoTool(HELM_BIN, 'helm');
export const installKubeconform = () => linkGoTool(KUBECONFORM_BIN, 'kubeconform');
