// The chart on a real Kubernetes control plane (ADR 0302): etcd, kube-apiserver,
// kube-controller-manager and kube-scheduler of a pinned release (FLATLAY_KUBE_VERSION, default
// the newest; `npm run k8s:matrix` runs each supported one), built from the Go module proxy, with
// kwok simulating the kubelets of a CPU pool (three nodes, three zones) and a GPU pool (two
// nodes: label, taint, nvidia.com/gpu). The operators' CRDs are made at test time from their own
// packages at pinned versions (Strimzi 1.2 by its CRD generator, KEDA 2.21 and the Prometheus
// Operator 0.95's PodMonitor, ServiceMonitor and PrometheusRule by controller-gen: the production
// values switch the chart's monitoring on, so those objects are admitted and installed too;
// CloudNativePG's Cluster and Database from the declarations and validators of the npm package
// @kubernetes-models/cloudnative-pg, ADR 0306, as its Go module is out of reach);
// no operator runs, so the Secrets they would make are made here, and said so where they are.
//
// What offline rendering cannot show and this does: API removals, strict field validation,
// defaulting and admission (Pod Security `restricted` on real Pods), what the controllers make
// of the objects, where the scheduler puts each Pod, and a real helm install/upgrade/rollback/uninstall.
import { afterAll, beforeAll, describe, it } from 'vitest';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { calleesOf, serviceNames, type CallerName } from '@flatlay/platform';
import {
  type Cluster,
  kubeVersionUnderTest,
  kwokNodes,
  runWithInput,
  sleep,
  startCluster,
} from '../../scripts/infra/kube-cluster.mjs';

// biome-ignore lint: Kubernetes objects read back from the API server are untyped JSON
type K8s = any;

const root = resolve(import.meta.dirname, '..', '..');
const chartDir = join(root, 'charts', 'flatlay');
const HELM = join(root, '.infra', 'bin', 'helm');
const VERSION = kubeVersionUnderTest();
const RELEASE = 'flatlay';
const NAMESPACE = 'flatlay';
const ZONES = ['zone-a', 'zone-b', 'zone-c'];
const REQUEST_PATH = ['gateway', ...serviceNames];
const GPU_POOL = 'gpu';

// Each value set as its files say: dev and in-cluster render CloudNativePG's Cluster and Databases.
const VALUE_SETS = [
  { name: 'default', files: [] as string[], namespace: NAMESPACE },
  { name: 'dev', files: ['values-dev.yaml'], namespace: 'flatlay-dev' },
  { name: 'production', files: ['values-prod.yaml'], namespace: NAMESPACE },
  { name: 'production in the cluster', files: ['values-prod.yaml', 'values-incluster.yaml'], namespace: NAMESPACE },
];
const PROD = ['--values', join(chartDir, 'values-prod.yaml')];

let cluster: Cluster;

async function kubectl(args: string[], input?: string): Promise<string> {
  const r = await cluster.kubectl(args, { input });
  assert.equal(r.status, 0, `kubectl ${args.join(' ')} failed:\n${r.stderr}${r.stdout}`);
  return r.stdout;
}
const getJson = async (args: string[]): Promise<K8s> => JSON.parse(await kubectl(['get', ...args, '-o', 'json']));
const items = async (kind: string, namespace = NAMESPACE): Promise<K8s[]> =>
  (await getJson([kind, '-n', namespace])).items;

async function helm(args: string[]): Promise<string> {
  assert.ok(existsSync(HELM), `helm is missing at ${relative(root, HELM)}: run \`node scripts/infra.mjs install\``);
  const r = await runWithInput(HELM, args, {
    cwd: root,
    env: {
      ...cluster.env,
      HELM_CACHE_HOME: join(cluster.dir, 'helm', 'cache'),
      HELM_CONFIG_HOME: join(cluster.dir, 'helm', 'config'),
      HELM_DATA_HOME: join(cluster.dir, 'helm', 'data'),
    },
  });
  assert.equal(r.status, 0, `helm ${args.join(' ')} failed:\n${r.stderr}${r.stdout}`);
  return r.stdout;
}

/** Polls `check` until it returns a truthy value; fails with `what` and the last state after `ms`. */
async function eventually<T>(what: string, check: () => Promise<T>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v;
      last = v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`${what}: not so after ${ms / 1000} s (last: ${String(last)})`);
    await sleep(500);
  }
}

const docs = (yaml: string): K8s[] =>
  parseAllDocuments(yaml)
    .map((d) => d.toJS())
    .filter((o) => o && typeof o === 'object');
const k8sManifests = (): string[] =>
  (function walk(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.yaml') ? [join(dir, e.name)] : [],
    );
  })(join(root, 'k8s'));
const componentOf = (o: K8s): string => o.metadata?.labels?.['app.kubernetes.io/component'];

/** The Secrets a workload references (env, envFrom, volumes) and the ConfigMaps and claims. */
function references(podSpec: K8s): { secrets: Set<string>; configMaps: Set<string>; claims: Set<string> } {
  const secrets = new Set<string>();
  const configMaps = new Set<string>();
  const claims = new Set<string>();
  for (const c of [...(podSpec.initContainers ?? []), ...podSpec.containers]) {
    for (const e of c.env ?? []) {
      if (e.valueFrom?.secretKeyRef && !e.valueFrom.secretKeyRef.optional) secrets.add(e.valueFrom.secretKeyRef.name);
      if (e.valueFrom?.configMapKeyRef) configMaps.add(e.valueFrom.configMapKeyRef.name);
    }
    for (const f of c.envFrom ?? []) {
      if (f.secretRef) secrets.add(f.secretRef.name);
      if (f.configMapRef) configMaps.add(f.configMapRef.name);
    }
  }
  for (const v of podSpec.volumes ?? []) {
    if (v.secret) secrets.add(v.secret.secretName);
    if (v.configMap) configMaps.add(v.configMap.name);
    if (v.persistentVolumeClaim) claims.add(v.persistentVolumeClaim.claimName);
  }
  return { secrets, configMaps, claims };
}

describe(`the chart on a real Kubernetes ${VERSION} control plane with kwok nodes`, () => {
  beforeAll(async () => {
    // Builds the binaries and CRDs on a machine's first run (cached outside the clone after).
    cluster = await startCluster({ version: VERSION });
    const cpu = kwokNodes({
      pool: 'cpu',
      count: 3,
      zones: ZONES,
      labels: { 'flatlay.dev/pool': 'cpu' },
      capacity: { cpu: '16', memory: '64Gi', pods: '110', 'ephemeral-storage': '200Gi' },
    });
    const gpu = kwokNodes({
      pool: GPU_POOL,
      count: 2,
      zones: ZONES,
      labels: { 'flatlay.dev/pool': GPU_POOL },
      taints: [{ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' }],
      capacity: { cpu: '16', memory: '96Gi', pods: '110', 'ephemeral-storage': '200Gi', 'nvidia.com/gpu': '1' },
    });
    await kubectl(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [...cpu, ...gpu] }));
    await eventually('five Ready kwok nodes', async () => {
      const nodes = (await getJson(['nodes'])).items;
      return (
        nodes.length === 5 &&
        nodes.every((n: K8s) => n.status.conditions?.some((c: K8s) => c.type === 'Ready' && c.status === 'True'))
      );
    });
    // The operators' CRDs, then the cluster-level objects a platform engineer applies first.
    await kubectl(['apply', '--server-side', ...cluster.tools.crds.flatMap((f) => ['-f', f])]);
    // Polled, not `kubectl wait`: that fails at once on a CRD whose status the API server has not
    // written yet (seen with CloudNativePG's large Cluster CRD on a loaded machine).
    await eventually('every CRD Established', async () =>
      (await getJson(['crd'])).items.every((crd: K8s) =>
        crd.status?.conditions?.some((c: K8s) => c.type === 'Established' && c.status === 'True'),
      ),
    );
    await kubectl(['apply', '-f', join(root, 'k8s', 'namespaces.yaml'), '-f', join(root, 'k8s', 'gpu')]);
  }, 60 * 60_000);

  afterAll(async () => {
    await cluster?.stop();
  });

  it('serves the pinned version, and the Strimzi (kafka.strimzi.io/v1 only), KEDA, Prometheus Operator and CloudNativePG APIs', async () => {
    const [status, body] = await cluster.get('/version');
    assert.equal(status, 200);
    assert.equal(JSON.parse(body).gitVersion, VERSION);
    const resources = await kubectl(['api-resources', '-o', 'name']);
    for (const r of [
      'kafkas.kafka.strimzi.io',
      'kafkanodepools.kafka.strimzi.io',
      'kafkatopics.kafka.strimzi.io',
      'kafkausers.kafka.strimzi.io',
      'scaledobjects.keda.sh',
      'triggerauthentications.keda.sh',
      'podmonitors.monitoring.coreos.com',
      'servicemonitors.monitoring.coreos.com',
      'prometheusrules.monitoring.coreos.com',
      'clusters.postgresql.cnpg.io',
      'databases.postgresql.cnpg.io',
    ])
      assert.ok(resources.split('\n').includes(r), `serves ${r}`);
    const versions = await kubectl(['api-versions']);
    assert.ok(versions.includes('kafka.strimzi.io/v1\n'));
    assert.ok(!versions.includes('kafka.strimzi.io/v1beta2'), 'Strimzi 1.x no longer serves v1beta2');
  });

  it('validates CloudNativePG objects with the made CRDs: a wrong type, an unknown enum value or field is refused', async () => {
    // The made schema must do more than admit: a CRD that preserved unknown fields everywhere would
    // pass every value set above. Each object differs from an admitted one by one field.
    const pgCluster = (spec: K8s) => ({
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Cluster',
      metadata: { name: 'probe', namespace: NAMESPACE },
      spec: { instances: 3, storage: { size: '1Gi' }, primaryUpdateStrategy: 'unsupervised', ...spec },
    });
    const pgDatabase = (spec: K8s) => ({
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Database',
      metadata: { name: 'probe', namespace: NAMESPACE },
      spec: { cluster: { name: 'probe' }, name: 'probe', owner: 'probe', databaseReclaimPolicy: 'retain', ...spec },
    });
    const dryRun = (o: K8s) =>
      cluster.kubectl(['apply', '--dry-run=server', '--validate=strict', '-o', 'name', '-f', '-'], {
        input: JSON.stringify(o),
      });
    for (const ok of [pgCluster({}), pgDatabase({})]) {
      const r = await dryRun(ok);
      assert.equal(r.status, 0, `${ok.kind} admitted:\n${r.stderr}`);
      assert.equal(r.stderr.trim(), '', `${ok.kind}: no warning`);
    }
    for (const [bad, why] of [
      [pgCluster({ instances: 'three' }), /spec\.instances.*must be of type integer/],
      [pgCluster({ instances: 2.5 }), /spec\.instances.*must be of type integer/],
      [
        pgCluster({ primaryUpdateStrategy: 'sometimes' }),
        /spec\.primaryUpdateStrategy: Unsupported value: "sometimes"/,
      ],
      [pgCluster({ instancez: 3 }), /unknown field "spec\.instancez"/],
      [pgDatabase({ databaseReclaimPolicy: 'shred' }), /spec\.databaseReclaimPolicy: Unsupported value: "shred"/],
    ] as const) {
      const r = await dryRun(bad);
      assert.notEqual(r.status, 0, `refused: ${JSON.stringify(bad.spec)}`);
      assert.match(r.stderr, why);
    }
  }, 60_000);

  for (const vs of VALUE_SETS) {
    it(`admits every object the chart renders with ${vs.name} values: server-side dry run, strict validation, no warning`, async () => {
      const rendered = await helm([
        'template',
        RELEASE,
        chartDir,
        '--namespace',
        vs.namespace,
        '--kube-version',
        VERSION,
        ...vs.files.flatMap((f) => ['--values', join(chartDir, f)]),
      ]);
      const objects = docs(rendered);
      assert.ok(objects.length > 30, `${vs.name}: renders the whole release`);
      const r = await cluster.kubectl(
        ['apply', '--dry-run=server', '--validate=strict', '-o', 'name', '-n', vs.namespace, '-f', '-'],
        { input: rendered },
      );
      assert.equal(r.status, 0, `${vs.name}: refused:\n${r.stderr}`);
      assert.equal(r.stderr.trim(), '', `${vs.name}: warnings:\n${r.stderr}`);
      assert.equal(r.stdout.trim().split('\n').length, objects.length, `${vs.name}: every object admitted`);
    });
  }

  it('admits every manifest under k8s/: server-side dry run, strict validation, no warning', async () => {
    const files = k8sManifests();
    const count = files.flatMap((f) => docs(readFileSync(f, 'utf8'))).length;
    const r = await cluster.kubectl([
      'apply',
      '--dry-run=server',
      '--validate=strict',
      '-o',
      'name',
      ...files.flatMap((f) => ['-f', f]),
    ]);
    assert.equal(r.status, 0, `refused:\n${r.stderr}`);
    assert.equal(r.stderr.trim(), '', `warnings:\n${r.stderr}`);
    assert.equal(r.stdout.trim().split('\n').length, count);
  });

  describe('helm install of the production values (bring-your-own data services)', () => {
    let expectedPods = 0;
    const replicasOf = new Map<string, number>();

    beforeAll(async () => {
      // The Secrets a platform engineer makes for bring-your-own services: every Secret the
      // production Deployments reference that the chart does not make itself. (The Kafka
      // credentials are the chart's; with no Strimzi operator running, nothing consumes them here.)
      const objects = docs(
        await helm(['template', RELEASE, chartDir, '--namespace', NAMESPACE, '--kube-version', VERSION, ...PROD]),
      );
      const madeByChart = new Set(objects.filter((o) => o.kind === 'Secret').map((o) => o.metadata.name));
      const keys = new Map<string, Set<string>>();
      for (const d of objects.filter((o) => o.kind === 'Deployment')) {
        for (const c of d.spec.template.spec.containers)
          for (const e of c.env ?? []) {
            const ref = e.valueFrom?.secretKeyRef;
            if (!ref || madeByChart.has(ref.name)) continue;
            keys.set(ref.name, (keys.get(ref.name) ?? new Set()).add(ref.key));
          }
        const hpa = objects.find(
          (o) => o.kind === 'HorizontalPodAutoscaler' && o.spec.scaleTargetRef.name === d.metadata.name,
        );
        replicasOf.set(componentOf(d), hpa ? hpa.spec.minReplicas : d.spec.replicas);
      }
      const secrets = [...keys].map(([name, ks]) => ({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name, namespace: NAMESPACE },
        stringData: Object.fromEntries([...ks].map((k) => [k, randomBytes(24).toString('base64url')])),
      }));
      await kubectl(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: secrets }));
      expectedPods = [...replicasOf.values()].reduce((a, b) => a + b, 0);
      await helm(['install', RELEASE, chartDir, '--namespace', NAMESPACE, ...PROD, '--wait', '--timeout', '10m']);
      // HPAs raise the request path to their minimum (no metrics API here: they report
      // FailedGetResourceMetric, and still hold the floor).
      await eventually(`${expectedPods} Pods Running`, async () => {
        const pods = await items('pods');
        return (
          pods.length === expectedPods &&
          pods.every((p) => p.status.phase === 'Running' && p.spec.nodeName && !p.metadata.deletionTimestamp)
        );
      });
    }, 15 * 60_000);

    it('creates every ReplicaSet and Pod; every Pod passes restricted admission and is Running', async () => {
      const deployments = await items('deployments');
      assert.deepEqual(deployments.map(componentOf).sort(), [...replicasOf.keys()].sort());
      const pods = await items('pods');
      for (const d of deployments) {
        const want = replicasOf.get(componentOf(d));
        assert.equal(d.status.readyReplicas, want, `${d.metadata.name}: ready replicas`);
        assert.ok(
          !d.status.conditions?.some((c: K8s) => c.type === 'ReplicaFailure' && c.status === 'True'),
          `${d.metadata.name}: no ReplicaFailure`,
        );
      }
      for (const rs of await items('replicasets'))
        assert.ok(
          !rs.status.conditions?.some((c: K8s) => c.type === 'ReplicaFailure'),
          `${rs.metadata.name}: ${JSON.stringify(rs.status.conditions)}`,
        );
      const ns = await getJson(['namespace', NAMESPACE]);
      assert.equal(ns.metadata.labels['pod-security.kubernetes.io/enforce'], 'restricted');
      // Admitted under `restricted` enforce means created at all. Pinning the enforced version makes
      // the API server re-check every running Pod against it (a dry run), and warn of any violation.
      const minor = VERSION.split('.').slice(0, 2).join('.');
      const check = await cluster.kubectl([
        'label',
        '--dry-run=server',
        '--overwrite',
        'namespace',
        NAMESPACE,
        `pod-security.kubernetes.io/enforce-version=${minor}`,
      ]);
      assert.equal(check.status, 0, check.stderr);
      assert.doesNotMatch(check.stderr, /violate/i);
      assert.equal(pods.length, expectedPods);
      for (const p of pods) {
        assert.equal(p.status.phase, 'Running', `${p.metadata.name}: ${p.status.phase}`);
        assert.ok(
          p.status.conditions.some((c: K8s) => c.type === 'Ready' && c.status === 'True'),
          `${p.metadata.name} Ready`,
        );
      }
    });

    it('puts the image worker only on GPU nodes and nothing else there; spreads the request path over the three zones', async () => {
      const nodes = new Map<string, K8s>((await getJson(['nodes'])).items.map((n: K8s) => [n.metadata.name, n]));
      const pods = await items('pods');
      const pool = (p: K8s) => nodes.get(p.spec.nodeName).metadata.labels['flatlay.dev/pool'];
      const zone = (p: K8s) => nodes.get(p.spec.nodeName).metadata.labels['topology.kubernetes.io/zone'];
      const workers = pods.filter((p) => componentOf(p) === 'image-worker');
      assert.ok(workers.length >= 1);
      for (const p of pods)
        assert.equal(
          pool(p) === GPU_POOL,
          componentOf(p) === 'image-worker',
          `${p.metadata.name} on ${p.spec.nodeName}`,
        );
      for (const w of workers) assert.equal(w.spec.containers[0].resources.limits['nvidia.com/gpu'], '1');
      for (const comp of REQUEST_PATH) {
        const own = pods.filter((p) => componentOf(p) === comp);
        const zones = new Set(own.map(zone));
        assert.equal(
          zones.size,
          Math.min(own.length, ZONES.length),
          `${comp}: ${own.length} replicas over ${[...zones]}`,
        );
      }
    });

    it('gives every Service ready endpoints; PDBs and HPAs point at what exists; every referenced Secret, ConfigMap and claim exists', async () => {
      const pods = await items('pods');
      const slices = await items('endpointslices');
      for (const svc of await items('services')) {
        const ready = slices
          .filter((s) => s.metadata.labels['kubernetes.io/service-name'] === svc.metadata.name)
          .flatMap((s) => s.endpoints ?? [])
          .filter((e: K8s) => e.conditions?.ready);
        const selected = pods.filter((p) => componentOf(p) === svc.spec.selector['app.kubernetes.io/component']);
        assert.ok(selected.length > 0, `${svc.metadata.name} selects pods`);
        assert.equal(ready.length, selected.length, `${svc.metadata.name}: one ready endpoint per pod`);
      }
      const deployments = new Map((await items('deployments')).map((d) => [d.metadata.name, d]));
      for (const pdb of await items('poddisruptionbudgets')) {
        const selected = pods.filter((p) =>
          Object.entries(pdb.spec.selector.matchLabels).every(([k, v]) => p.metadata.labels[k] === v),
        );
        assert.ok(selected.length > 0, `${pdb.metadata.name} selects pods`);
        await eventually(`${pdb.metadata.name} observed`, async () => {
          const live = await getJson(['pdb', pdb.metadata.name, '-n', NAMESPACE]);
          return live.status?.expectedPods === selected.length;
        });
      }
      for (const hpa of await items('horizontalpodautoscalers'))
        assert.ok(deployments.has(hpa.spec.scaleTargetRef.name), `${hpa.metadata.name} targets a Deployment`);
      for (const so of await items('scaledobjects'))
        assert.ok(deployments.has(so.spec.scaleTargetRef.name), `${so.metadata.name} targets a Deployment`);
      const secrets = new Set((await items('secrets')).map((s) => s.metadata.name));
      const configMaps = new Set((await items('configmaps')).map((c) => c.metadata.name));
      const claims = new Set((await items('persistentvolumeclaims')).map((c) => c.metadata.name));
      for (const p of pods) {
        const refs = references(p.spec);
        for (const s of refs.secrets) assert.ok(secrets.has(s), `${p.metadata.name}: Secret ${s} exists`);
        for (const c of refs.configMaps) assert.ok(configMaps.has(c), `${p.metadata.name}: ConfigMap ${c} exists`);
        for (const c of refs.claims) assert.ok(claims.has(c), `${p.metadata.name}: claim ${c} exists`);
      }
    });

    it('installs a PodMonitor per component selecting its Running pods by their metrics port, the PrometheusRule and the dashboards', async () => {
      const pods = await items('pods');
      const monitors = await items('podmonitors');
      assert.deepEqual(monitors.map(componentOf).sort(), [...replicasOf.keys()].sort());
      for (const m of monitors) {
        const selected = pods.filter((p) =>
          Object.entries(m.spec.selector.matchLabels).every(([k, v]) => p.metadata.labels[k] === v),
        );
        assert.equal(selected.length, replicasOf.get(componentOf(m)), `${m.metadata.name} selects its pods`);
        for (const p of selected)
          assert.ok(
            p.spec.containers[0].ports.some((port: K8s) => port.name === m.spec.podMetricsEndpoints[0].port),
            `${p.metadata.name} declares the port ${m.metadata.name} scrapes`,
          );
      }
      const [rule, ...more] = await items('prometheusrules');
      assert.equal(more.length, 0);
      assert.ok(rule.spec.groups.flatMap((g: K8s) => g.rules).every((r: K8s) => r.alert && r.expr));
      const boards = (await items('configmaps')).filter((c) => c.metadata.labels?.grafana_dashboard === '1');
      assert.equal(boards.length, 3, 'the API, bus and GPU pool dashboards');
    });

    it("admits NetworkPolicies whose gRPC edges are exactly the service registry's", async () => {
      const policies = await items('networkpolicies');
      const edges = new Set<string>();
      for (const p of policies) {
        const to = p.spec.podSelector.matchLabels?.['app.kubernetes.io/component'];
        if (!to) continue;
        for (const rule of p.spec.ingress ?? [])
          for (const peer of rule.from ?? []) {
            const from = peer.podSelector?.matchLabels?.['app.kubernetes.io/component'];
            if (from) edges.add(`${from}->${to}`);
          }
      }
      const expected = new Set<string>();
      for (const from of [...replicasOf.keys()]) {
        for (const to of calleesOf(from as CallerName)) if (replicasOf.has(to)) expected.add(`${from}->${to}`);
      }
      assert.deepEqual([...edges].sort(), [...expected].sort());
    });

    it('helm upgrade with a changed value rolls every Deployment with no unavailable replica; rollback returns; uninstall leaves only kept credentials', async () => {
      const before = new Map((await items('deployments')).map((d) => [d.metadata.name, d.metadata.generation]));
      // Generated credentials (each component's service key pair, the URL-signing key): read back, never remade.
      const generated = async () =>
        new Map(
          (await items('secrets'))
            .filter((x) => /^flatlay-(service-key-|image-urls$)/.test(x.metadata.name))
            .map((x) => [x.metadata.name, JSON.stringify(x.data)]),
        );
      const keysBefore = await generated();
      assert.equal(keysBefore.size, REQUEST_PATH.length + 2, 'a service key per component and the URL key');
      // Watch availability while the upgrade rolls: sampled through the API all along.
      let worst = Number.POSITIVE_INFINITY;
      let samples = 0;
      let watching = true;
      const watcher = (async () => {
        while (watching) {
          const [status, body] = await cluster.get(`/apis/apps/v1/namespaces/${NAMESPACE}/deployments`);
          if (status === 200) samples++;
          if (status === 200)
            for (const d of JSON.parse(body).items) {
              const want = replicasOf.get(componentOf(d)) ?? 0;
              worst = Math.min(worst, (d.status.availableReplicas ?? 0) - want);
            }
          await sleep(100);
        }
      })();
      await helm([
        'upgrade',
        RELEASE,
        chartDir,
        '--namespace',
        NAMESPACE,
        ...PROD,
        '--set',
        'config.LOG_LEVEL=debug',
        '--wait',
        '--timeout',
        '10m',
      ]);
      await eventually('every Deployment rolled out', async () => {
        const ds = await items('deployments');
        return ds.every(
          (d) =>
            d.metadata.generation > (before.get(d.metadata.name) ?? 0) &&
            d.status.observedGeneration === d.metadata.generation &&
            d.status.updatedReplicas === replicasOf.get(componentOf(d)) &&
            d.status.availableReplicas === replicasOf.get(componentOf(d)) &&
            !d.status.unavailableReplicas,
        );
      });
      watching = false;
      await watcher;
      assert.ok(samples > 0, 'availability was sampled during the upgrade');
      assert.ok(worst >= 0, `a Deployment had ${-worst} replica(s) unavailable during the upgrade`);
      assert.deepEqual(await generated(), keysBefore, 'the upgrade kept every generated key');
      const config = async () => (await items('configmaps')).find((c) => c.metadata.name === `${RELEASE}-config`).data;
      assert.equal((await config()).LOG_LEVEL, 'debug');

      await helm(['rollback', RELEASE, '1', '--namespace', NAMESPACE, '--wait', '--timeout', '10m']);
      assert.equal((await config()).LOG_LEVEL, 'info');
      const history = JSON.parse(await helm(['history', RELEASE, '--namespace', NAMESPACE, '-o', 'json']));
      assert.equal(history.at(-1).status, 'deployed');
      assert.equal(history.length, 3);

      await helm(['uninstall', RELEASE, '--namespace', NAMESPACE, '--wait', '--timeout', '5m']);
      await eventually('the release is gone but for what it keeps by design', async () => {
        const left = JSON.parse(
          await kubectl([
            'get',
            'all,configmaps,secrets,pdb,hpa,networkpolicies,kafkatopics,kafkausers,scaledobjects,triggerauthentications,serviceaccounts,ingresses,podmonitors,prometheusrules',
            '-n',
            NAMESPACE,
            '-l',
            `app.kubernetes.io/instance=${RELEASE}`,
            '-o',
            'json',
          ]),
        ).items;
        // The Kafka users' passwords outlive the release (helm.sh/resource-policy: keep).
        return left.every(
          (o: K8s) => o.kind === 'Secret' && o.metadata.annotations?.['helm.sh/resource-policy'] === 'keep',
        );
      });
    });
  });
});
