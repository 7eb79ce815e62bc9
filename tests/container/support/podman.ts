// Runs the product image's components with podman as the chart runs them in Kubernetes: uid/gid
// 1000, a read-only root with only /tmp writable (a tmpfs, the chart's emptyDir), no capabilities,
// no privilege escalation, the secret files mounted read-only; `--network=host` (no network is
// made for containers here) with each component on ports of its own.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkHealth } from '@flatlay/platform';
import { repoRoot } from '../../support/helm.js';
import { waitFor } from '../../../services/platform/test/support.js';
import type { ComponentRun, Probe } from './deployment.js';

/** The project's podman settings (runc, cgroupfs, no default ulimits): scripts/container/containers.conf. */
const CONTAINERS_CONF = join(repoRoot, 'scripts', 'container', 'containers.conf');
/** What scripts/infra/containers.mjs builds for the tests. */
export const TEST_IMAGE = 'localhost/flatlay:test';

export interface Exec {
  code: number;
  output: string;
}

/** Runs podman; `env` is added to podman's own environment (where `-e NAME` takes its values from). */
export function podman(args: string[], env: Record<string, string> = {}): Promise<Exec> {
  return new Promise((ok, fail) => {
    const child = spawn('podman', args, {
      env: { ...process.env, ...env, CONTAINERS_CONF },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (e) =>
      fail(new Error(`podman cannot run (${e.message}): scripts/infra/containers.mjs tools installs it`)),
    );
    child.on('close', (code) => ok({ code: code ?? 1, output }));
  });
}

async function must(args: string[], env?: Record<string, string>): Promise<string> {
  const r = await podman(args, env);
  if (r.code !== 0) throw new Error(`podman ${args[0]} failed (${r.code}):\n${r.output.slice(-4000)}`);
  return r.output;
}

/**
 * How long the tier waits for the runner's image build to write its outcome. scripts/test.mjs
 * finishes a long build (a cold machine) before vitest starts, and starts this tier after the slower
 * tiers' files otherwise, so the quick build left (the product's layers: 22 to 35 s measured in the
 * background of a run at load 11 to 28, 12 to 29 s in ADR 0304) is done or nearly so by then.
 */
export const IMAGE_STATUS_WAIT_MS = 80_000;

/**
 * The product image, ready: under `npm test` the runner builds it (see IMAGE_STATUS_WAIT_MS) and
 * writes its outcome to FLATLAY_CONTAINER_IMAGE_STATUS; this waits for that file. Run alone (vitest
 * on this file), the spec builds it itself when that build is quick (the base and the dependency
 * layer cached); a cold build (minutes) is `node scripts/infra/containers.mjs image`'s to make first.
 */
export async function productImage(): Promise<string> {
  const statusFile = process.env.FLATLAY_CONTAINER_IMAGE_STATUS;
  if (statusFile) {
    await waitFor(() => existsSync(statusFile), 'the container image build (scripts/test.mjs)', IMAGE_STATUS_WAIT_MS);
    const status = JSON.parse(readFileSync(statusFile, 'utf8')) as { ok: boolean; image?: string; error?: string };
    if (!status.ok) throw new Error(`the container image build failed: ${status.error}`);
    return status.image!;
  }
  const containers = (await import(pathToFileURL(join(repoRoot, 'scripts', 'infra', 'containers.mjs')).href)) as {
    imageBuildIsCold(): Promise<{ cold: boolean; reason: string }>;
  };
  const cache = await containers.imageBuildIsCold();
  if (cache.cold)
    throw new Error(
      `the container image's build is long here (${cache.reason}): run \`node scripts/infra/containers.mjs image\` first, or \`npm test -- container\``,
    );
  const exit = await new Promise<{ code: number; output: string }>((ok) => {
    const child = spawn(process.execPath, [join(repoRoot, 'scripts', 'infra', 'containers.mjs'), 'image'], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => ok({ code: code ?? 1, output }));
  });
  if (exit.code !== 0) throw new Error(`the container image build failed:\n${exit.output.slice(-6000)}`);
  return TEST_IMAGE;
}

/** Starts one component detached; its environment reaches podman by name only (never on its command line). */
export async function startContainer(image: string, name: string, run: ComponentRun): Promise<void> {
  const args = [
    'run',
    '--detach',
    '--name',
    name,
    '--network=host',
    '--user',
    '1000:1000',
    '--read-only',
    // podman's --read-only adds writable /run and /var/tmp by default; the chart has only /tmp.
    '--read-only-tmpfs=false',
    '--tmpfs',
    '/tmp:rw,nosuid,nodev,size=1g,mode=1777',
    '--cap-drop=ALL',
    '--security-opt=no-new-privileges',
    ...run.mounts.flatMap((m) => ['--volume', `${m.host}:${m.container}:ro`]),
    ...Object.keys(run.env).flatMap((k) => ['--env', k]),
    image,
    ...run.command,
  ];
  await must(args, run.env);
}

/** Whether the container still runs. */
async function isRunning(name: string): Promise<boolean> {
  return (await podman(['inspect', '--format', '{{.State.Running}}', name])).output.trim() === 'true';
}

/** Whether the container still runs, and its last output lines (for failure messages). */
export async function state(name: string): Promise<{ running: boolean; logs: string }> {
  const logs = await podman(['logs', '--tail', '60', name]);
  return { running: await isRunning(name), logs: logs.output };
}

/**
 * The chart's probe, asked from inside the container (`podman exec`) with the image's own Node:
 * an HTTP GET for the gateway, the standard gRPC health check (grpc.health.v1) for the others.
 */
export function probe(name: string, p: Probe): Promise<Exec> {
  const script =
    p.kind === 'http'
      ? `const r = await fetch('http://127.0.0.1:${p.port}${p.path}'); process.exit(r.ok ? 0 : 1);`
      : [
          `const grpc = await import('@grpc/grpc-js');`,
          `const { service } = await import('grpc-health-check');`,
          `const Health = grpc.makeGenericClientConstructor(service, 'Health');`,
          `const client = new Health('127.0.0.1:${p.port}', grpc.credentials.createInsecure());`,
          `client.check({ service: '' }, { deadline: Date.now() + 3000 }, (err, res) => {`,
          `  console.log(err ? err.message : res.status); process.exit(!err && (res.status === 'SERVING' || res.status === 1) ? 0 : 1);`,
          `});`,
        ].join('\n');
  return podman(['exec', name, 'node', '--input-type=module', '-e', script]);
}

/**
 * How long one component may take from `podman run` to ready (they start at once). Measured on the
 * 2-core machine shared with other runs (load 12 to 21): 56 to 67 s while every try was the
 * in-container probe (a `podman exec` of Node, then `podman inspect` and `podman logs`, for seven
 * components at a time, competing with them for the CPU), 28 to 34 s with the host-side check
 * first; 36 to 39 s with the scrape test starting its seven processes on the other worker (67 to
 * 77 s before). Each component's own CPU to ready is 2 to 3 s: the rest is waiting for the cores.
 */
export const READY_WAIT_MS = 85_000;

/** The readiness probe's port answering from the host (every container shares its network): a cheap, in-process check. */
async function answersFromHost(p: Probe): Promise<boolean> {
  if (p.kind === 'http') {
    const r = await fetch(`http://127.0.0.1:${p.port}${p.path}`, { signal: AbortSignal.timeout(3_000) }).catch(
      () => undefined,
    );
    return r?.ok === true;
  }
  return (await checkHealth(`127.0.0.1:${p.port}`, '', 3_000)) === 'SERVING';
}

/**
 * Waits until the readiness probe passes from inside the container; fails at once (with its logs) if
 * the container stops. The same check from the host comes first: the in-container probe is only
 * tried once the host sees the component ready, so the wait does not compete for the CPU with the
 * components it waits for.
 */
export async function untilReady(name: string, run: ComponentRun, timeoutMs = READY_WAIT_MS): Promise<void> {
  let checked = 0;
  await waitFor(
    async () => {
      if ((await answersFromHost(run.readiness)) && (await probe(name, run.readiness)).code === 0) return true;
      // Whether it still runs: a `podman inspect`, every other second at most.
      if (Date.now() - checked > 2_000) {
        checked = Date.now();
        if (!(await isRunning(name)))
          throw new Error(`${run.name} stopped before it was ready:\n${(await state(name)).logs}`);
      }
      await new Promise((r) => setTimeout(r, 250));
      return false;
    },
    `${run.name} ready (its readiness probe from inside the container)`,
    timeoutMs,
  );
}

/** Removes the containers (whatever state they are in) and the suite's secret files. */
export async function removeAll(names: string[], filesDir?: string): Promise<void> {
  if (names.length) await podman(['rm', '--force', '--ignore', '--time', '10', ...names]);
  if (filesDir) rmSync(filesDir, { recursive: true, force: true });
}
