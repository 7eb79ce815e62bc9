// The environment and flags of the infrastructure's Go builds (go-tools, k6, Toxiproxy, Prometheus,
// and the control plane's tools in kube-tools.mjs).

import os from 'node:os';
import { log } from './log.mjs';
import { run } from './process.mjs';

/**
 * Read when a build starts: installGo (apt.mjs) may put the Go toolchain it fetched on this
 * process's PATH after the modules were loaded, and a copy taken at load time sent `go` to a PATH
 * without it (spawn go ENOENT on a machine with no Go of its own).
 */
export const goEnv = () => ({ ...process.env, GOFLAGS: '-mod=mod', GO111MODULE: 'on', GOWORK: 'off' });

/**
 * The flags of every tool's build. `-s -w` leave out the symbol table and DWARF: the tools are run,
 * never debugged, and the linker's longest work on a large binary (MinIO, Prometheus, kube-apiserver)
 * is writing those. `-trimpath` makes the build independent of where the module cache is, and, being
 * the same everywhere (etcd's and Kubernetes' builds use it too), lets the standard library compiled
 * once by warmGoStd serve every build: the compile cache's key includes it.
 */
export const GO_STRIP = '-s -w';
export const GO_BUILD_FLAGS = Object.freeze(['-trimpath', `-ldflags=${GO_STRIP}`]);

/** `go <args>` in the module folder `cwd`, in goEnv(); answers its output. */
/** @param {string} cwd @param {string[]} args */
export const goIn = (cwd, args) => run('go', args, { cwd, env: goEnv() });

/** @type {Promise<void> | undefined} */
let stdWarmed;

/**
 * Compiles the standard library into Go's build cache once, before the tools' builds start side by
 * side. Go's cache has no lock between processes: eight builds that start together on a cold cache
 * each compile the standard library for themselves (cmd/go reuses only finished results). On a warm
 * cache this is a check of a few seconds. Once per process; a failure is left to the builds
 * themselves to report.
 */
export function warmGoStd() {
  stdWarmed ??= (async () => {
    const t = Date.now();
    await run('go', ['build', '-trimpath', 'std'], { cwd: os.tmpdir(), env: goEnv() }).catch(() => undefined);
    log(`go: the standard library compiled or checked in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  })();
  return stdWarmed;
}

/**
 * `go build` or `go install` of a tool: the shared flags, after the standard library is compiled
 * (warmGoStd), in goEnv() with `env` over it (GOBIN). Every tool's build goes through here; the
 * control plane's own (kube-tools.mjs) adds its version stamps and calls warmGoStd itself.
 * @param {'build' | 'install'} verb @param {string[]} args
 * @param {{ cwd?: string, env?: Record<string, string> }} [opts]
 */
export async function goCompile(verb, args, { cwd = os.tmpdir(), env = {} } = {}) {
  await warmGoStd();
  return run('go', [verb, ...GO_BUILD_FLAGS, ...args], { cwd, env: { ...goEnv(), ...env } });
}
