// Prometheus and promtool (github.com/prometheus/prometheus, cmd/prometheus and cmd/promtool), the
// monitoring tests' real parts (tests/monitoring-*.int.spec.ts, ADR 0305): built once per machine
// with the other tools on Kubernetes' libraries (kube-family.mjs, ADR 0307: without the
// `builtinassets` tag, so no web UI, the HTTP API only; with `remove_all_sd`, no service discovery
// but the static and file ones), and linked into .infra/bin of each clone.

import path from 'node:path';
import { linkTool } from './go-tools.mjs';
import { installKubeFamily } from './kube-family.mjs';
import { BIN } from './layout.mjs';

export const PROMETHEUS_BIN = path.join(BIN, 'prometheus');
export const PROMTOOL_BIN = path.join(BIN, 'promtool');

/** Links prometheus and promtool, from the build of the tools on Kubernetes' libraries, into .infra/bin. */
export async function installPrometheus() {
  const dir = await installKubeFamily();
  linkTool(PROMETHEUS_BIN, path.join(dir, 'prometheus'));
  linkTool(PROMTOOL_BIN, path.join(dir, 'promtool'));
  return { prometheus: PROMETHEUS_BIN, promtool: PROMTOOL_BIN };
}
