// The real helm binary (built into .infra/bin by `node scripts/infra.mjs install`), run with its
// cache, config and data kept in .infra/helm so a test never reads or writes the user's own.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';

export const repoRoot = resolve(import.meta.dirname, '..', '..');
export const HELM = join(repoRoot, '.infra', 'bin', 'helm');

/** Runs helm with `args`; its exit status, standard output and standard error. */
export function runHelm(args: string[]): { status: number; stdout: string; stderr: string } {
  if (!existsSync(HELM))
    throw new Error('helm is missing at .infra/bin/helm: run `node scripts/infra.mjs install` (it builds helm)');
  const r = spawnSync(HELM, args, {
    cwd: repoRoot,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: {
      ...process.env,
      HELM_CACHE_HOME: join(repoRoot, '.infra', 'helm', 'cache'),
      HELM_CONFIG_HOME: join(repoRoot, '.infra', 'helm', 'config'),
      HELM_DATA_HOME: join(repoRoot, '.infra', 'helm', 'data'),
    },
  });
  if (r.error) throw r.error;
  return { status: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
}

/** The chart's objects as `helm template` renders them (release flatlay, namespace flatlay), with `args` added. */
// biome-ignore lint/suspicious/noExplicitAny: rendered Kubernetes objects are untyped
export function renderChart(args: string[]): any[] {
  const chart = join(repoRoot, 'charts', 'flatlay');
  const r = runHelm(['template', 'flatlay', chart, '--namespace', 'flatlay', '--kube-version', '1.37.2', ...args]);
  if (r.status !== 0) throw new Error(`helm template ${args.join(' ')}:\n${r.stderr}`);
  return parseAllDocuments(r.stdout)
    .map((d) => d.toJS())
    .filter((o) => o && typeof o === 'object');
}
