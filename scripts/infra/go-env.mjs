// The environment and flags of the infrastructure's Go builds: the one build of every Go tool
// (kube-family.mjs) and the other Kubernetes versions' control planes (kube-tools.mjs).

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
 * never debugged, and the linker's longest work on a large binary (k6, Prometheus, kube-apiserver)
 * is writing those. `-dwarf=false` has the compiler not make the DWARF the linker would drop anyway:
 * about a tenth less compile (k6 from an empty cache, twice each way: 304 and 314 s of CPU against
 * 344 and 348; the binary is byte-for-byte the same size) and a fifth less build cache.
 * `-trimpath` makes the build independent of where the module cache is. Being the same everywhere,
 * these flags let the standard library compiled once by warmGoStd serve every build: the compile
 * cache's key includes them.
 */
export const GO_STRIP = '-s -w';
export const GO_BUILD_FLAGS = Object.freeze(['-trimpath', '-gcflags=all=-dwarf=false', `-ldflags=${GO_STRIP}`]);

/** The compile's flags alone (the link's set apart), as warmGoStd and the version-stamped builds use them. */
export const GO_COMPILE_FLAGS = Object.freeze(GO_BUILD_FLAGS.filter((f) => !f.startsWith('-ldflags')));

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
    await run('go', ['build', ...GO_COMPILE_FLAGS, 'std'], { cwd: os.tmpdir(), env: goEnv() }).catch(() => undefined);
    log(`go: the standard library compiled or checked in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  })();
  return stdWarmed;
}
