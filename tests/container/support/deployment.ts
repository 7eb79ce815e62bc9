// The chart's rendered Deployments as podman would run them: each component's command, its
// environment (literal values, the shared ConfigMap, and every secretKeyRef resolved from the
// Secrets this suite makes), the secret files the chart mounts (the service keys), and its probe.
// Ports are moved to free ones (every container shares the host's network here, where the chart
// gives each pod its own): the serving port, the metrics port and every <NAME>_ADDR follow.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { runHelm, repoRoot } from '../../support/helm.js';

/** A Secret's data, by Secret name then key (the values this suite makes; never committed). */
export type Secrets = Record<string, Record<string, string>>;

export interface Probe {
  kind: 'grpc' | 'http';
  port: number;
  path?: string;
}

export interface ComponentRun {
  name: string;
  command: string[];
  /** The container's environment: literal values and resolved secretKeyRefs alike. */
  env: Record<string, string>;
  /** Host folder -> container path, read-only (the chart's secret volumes). */
  mounts: Array<{ host: string; container: string }>;
  readiness: Probe;
  liveness: Probe;
  /** The port the component serves (after remapping). */
  port: number;
}

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } };
}
interface Container {
  name: string;
  command: string[];
  ports: Array<{ name: string; containerPort: number }>;
  env?: EnvVar[];
  envFrom?: Array<{ configMapRef?: { name: string } }>;
  volumeMounts?: Array<{ name: string; mountPath: string }>;
  readinessProbe: ProbeSpec;
  livenessProbe: ProbeSpec;
}
interface ProbeSpec {
  grpc?: { port: number };
  httpGet?: { path: string; port: string | number };
}
interface Volume {
  name: string;
  secret?: { secretName: string; items?: Array<{ key: string; path: string }> };
  projected?: { sources: Array<{ secret: { name: string; items: Array<{ key: string; path: string }> } }> };
  emptyDir?: object;
}
// biome-ignore lint: rendered Kubernetes objects are untyped
type Json = any;

/** `helm template` of charts/flatlay with `sets` (--set), as objects. */
export function renderChart(sets: string[]): Json[] {
  const args = ['template', 'flatlay', join(repoRoot, 'charts', 'flatlay'), '--namespace', 'flatlay'];
  const r = runHelm([...args, '--kube-version', '1.37.2', ...sets.flatMap((s) => ['--set', s])]);
  if (r.status !== 0) throw new Error(`helm template failed:\n${r.stderr}`);
  return parseAllDocuments(r.stdout)
    .map((d) => d.toJS())
    .filter((o) => o && typeof o === 'object');
}

/**
 * Each Deployment of `objects` as a ComponentRun. `ports` gives each component's free ports
 * (serving, metrics); `filesDir` receives the secret volumes' files (owned by uid/gid 1000 with the
 * chart's modes, as the kubelet writes them with fsGroup 1000).
 */
export function componentRuns(
  objects: Json[],
  secrets: Secrets,
  ports: Record<string, { serve: number; metrics: number }>,
  filesDir: string,
): ComponentRun[] {
  const configMaps = new Map<string, Record<string, string>>(
    objects.filter((o) => o.kind === 'ConfigMap').map((o) => [o.metadata.name, o.data ?? {}]),
  );
  const deployments = objects.filter((o) => o.kind === 'Deployment');
  // The chart's gRPC address of each component (its Service, e.g. flatlay-ledger:50052) -> ours.
  const addressOf = new Map<string, string>();
  for (const d of deployments) {
    const component = d.metadata.labels['app.kubernetes.io/component'];
    const [c] = d.spec.template.spec.containers as Container[];
    addressOf.set(`${d.metadata.name}:${c!.ports[0]!.containerPort}`, `127.0.0.1:${ports[component]!.serve}`);
  }
  return deployments.map((d) => {
    const component: string = d.metadata.labels['app.kubernetes.io/component'];
    const [c] = d.spec.template.spec.containers as [Container];
    const own = ports[component];
    if (!own) throw new Error(`no ports chosen for ${component}`);
    const chartPort = c.ports[0]!.containerPort;
    const metricsPort = c.ports.find((p) => p.name === 'metrics')?.containerPort;
    const remap = (value: string) => {
      if (value === String(chartPort)) return String(own.serve);
      if (metricsPort !== undefined && value === String(metricsPort)) return String(own.metrics);
      return addressOf.get(value) ?? value;
    };
    const env: Record<string, string> = {};
    for (const from of c.envFrom ?? []) {
      const name = from.configMapRef?.name;
      if (!name) throw new Error(`${component}: only configMapRef is supported in envFrom`);
      const data = configMaps.get(name);
      if (!data) throw new Error(`${component}: ConfigMap ${name} is not rendered`);
      Object.assign(env, data);
    }
    for (const v of c.env ?? []) {
      const ref = v.valueFrom?.secretKeyRef;
      if (ref) {
        const value = secrets[ref.name]?.[ref.key];
        if (value !== undefined) env[v.name] = value;
        else if (!ref.optional) throw new Error(`${component}: Secret ${ref.name} has no ${ref.key} (not optional)`);
      } else if (v.valueFrom) throw new Error(`${component}: env ${v.name} has an unsupported valueFrom`);
      else env[v.name] = remap(v.value ?? '');
    }
    const volumes = new Map<string, Volume>((d.spec.template.spec.volumes ?? []).map((v: Volume) => [v.name, v]));
    const mounts: ComponentRun['mounts'] = [];
    for (const m of c.volumeMounts ?? []) {
      const volume = volumes.get(m.name);
      if (!volume) throw new Error(`${component}: volume ${m.name} is not declared`);
      if (volume.emptyDir) continue; // /tmp: the container's tmpfs
      const items = volume.secret
        ? (volume.secret.items ?? []).map((i) => ({ secret: volume.secret!.secretName, ...i }))
        : (volume.projected?.sources ?? []).flatMap((s) =>
            s.secret.items.map((i) => ({ secret: s.secret.name, ...i })),
          );
      if (!items.length) throw new Error(`${component}: volume ${m.name} is neither a secret nor a projected secret`);
      const host = join(filesDir, component, m.name);
      mkdirSync(host, { recursive: true });
      for (const item of items) {
        const value = secrets[item.secret]?.[item.key];
        if (value === undefined) throw new Error(`${component}: Secret ${item.secret} has no ${item.key}`);
        writeFileSync(join(host, item.path), value, { mode: 0o440 });
      }
      mounts.push({ host, container: m.mountPath });
    }
    const probe = (p: ProbeSpec): Probe => {
      if (p.grpc) return { kind: 'grpc', port: Number(remap(String(p.grpc.port))) };
      if (p.httpGet) {
        const port =
          typeof p.httpGet.port === 'number'
            ? p.httpGet.port
            : c.ports.find((x) => x.name === p.httpGet!.port)?.containerPort;
        return { kind: 'http', port: Number(remap(String(port))), path: p.httpGet.path };
      }
      throw new Error(`${component}: a probe that is neither grpc nor httpGet`);
    };
    return {
      name: component,
      command: c.command,
      env,
      mounts,
      readiness: probe(c.readinessProbe),
      liveness: probe(c.livenessProbe),
      port: own.serve,
    };
  });
}
