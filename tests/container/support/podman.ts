// Runs the product image's components with podman as the chart runs them in Kubernetes: uid/gid
// 1000, a read-only root with only /tmp writable (a tmpfs, the chart's emptyDir), no capabilities,
// no privilege escalation, the secret files mounted read-only; `--network=host` (no network is
// made for containers here) with each component on ports of its own.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
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
 * The product image, ready: under `npm test` the runner builds it in the background while the other
 * tiers run and writes its outcome to FLATLAY_CONTAINER_IMAGE_STATUS; this waits for that file.
 * Run alone (vitest on this file), the spec builds it itself (cached layers make that quick).
 */
export async function productImage(): Promise<string> {
  const statusFile = process.env.FLATLAY_CONTAINER_IMAGE_STATUS;
  if (statusFile) {
    await waitFor(() => existsSync(statusFile), 'the container image build (scripts/test.mjs)', 900_000);
    const status = JSON.parse(readFileSync(statusFile, 'utf8')) as { ok: boolean; image?: string; error?: string };
    if (!status.ok) throw new Error(`the container image build failed: ${status.error}`);
    return status.image!;
  }
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

/** Whether the container still runs, and its last output lines (for failure messages). */
export async function state(name: string): Promise<{ running: boolean; logs: string }> {
  const inspect = await podman(['inspect', '--format', '{{.State.Running}}', name]);
  const logs = await podman(['logs', '--tail', '60', name]);
  return { running: inspect.output.trim() === 'true', logs: logs.output };
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

/** Waits until the readiness probe passes; fails at once (with its logs) if the container stops. */
export async function untilReady(name: string, run: ComponentRun, timeoutMs = 150_000): Promise<void> {
  await waitFor(
    async () => {
      const r = await probe(name, run.readiness);
      if (r.code === 0) return true;
      const s = await state(name);
      if (!s.running) throw new Error(`${run.name} stopped before it was ready:\n${s.logs}`);
      // Each try starts a process in the container: not more than twice a second.
      await new Promise((r) => setTimeout(r, 500));
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
