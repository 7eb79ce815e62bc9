#!/usr/bin/env node
// `npm run k8s:rehearsal` (not part of `npm test`): the production values at the size of the 1M-user
// row of docs/operations.md's sizing table, installed on a real control plane with kwok nodes in
// those numbers. Prints the time from `helm install` to every Pod Running, and the API object counts.
//   FLATLAY_KUBE_VERSION picks the Kubernetes release (default: the newest pinned).
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { HELM_BIN, install } from './infra.mjs';
import { kubeVersionUnderTest, kwokNodes, runWithInput, sleep, startCluster } from './infra/kube-cluster.mjs';
import { repoRoot } from './lib/steps.mjs';

// The 1M-user row: 32 GPU workers; the request path at its HPA floors for that load.
const SIZE = {
  gpuNodes: 32,
  cpuNodes: 9,
  zones: ['zone-a', 'zone-b', 'zone-c'],
  set: [
    'keda.enabled=false',
    'components.image-worker.replicas=32',
    'components.gateway.hpa.minReplicas=12',
    'components.gateway.hpa.maxReplicas=40',
    ...['identity', 'ledger', 'image', 'billing', 'analytics'].flatMap((s) => [
      `components.${s}.hpa.minReplicas=4`,
      `components.${s}.hpa.maxReplicas=12`,
    ]),
  ],
};
const NAMESPACE = 'flatlay';
const chartDir = join(repoRoot, 'charts', 'flatlay');
const values = ['--values', join(chartDir, 'values-prod.yaml'), ...SIZE.set.flatMap((s) => ['--set', s])];

await install();
const version = kubeVersionUnderTest();
const cluster = await startCluster({ version });
/** @param {Promise<import('./infra/kube-cluster.d.mts').RunResult>} p */
const must = async (p) => {
  const r = await p;
  if (r.status !== 0) throw new Error(`${r.stderr}${r.stdout}`);
  return r.stdout;
};
/** @param {string[]} args @param {string} [input] */
const kubectl = (args, input) => must(cluster.kubectl(args, { input }));
/** @param {string[]} args */
const helm = (args) =>
  must(runWithInput(HELM_BIN, args, { env: { ...cluster.env, HELM_CACHE_HOME: join(cluster.dir, 'helm') } }));
try {
  const nodes = [
    ...kwokNodes({
      pool: 'cpu',
      count: SIZE.cpuNodes,
      zones: SIZE.zones,
      labels: { 'flatlay.dev/pool': 'cpu' },
      capacity: { cpu: '16', memory: '64Gi', pods: '110' },
    }),
    ...kwokNodes({
      pool: 'gpu',
      count: SIZE.gpuNodes,
      zones: SIZE.zones,
      labels: { 'flatlay.dev/pool': 'gpu' },
      taints: [{ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' }],
      capacity: { cpu: '16', memory: '96Gi', pods: '110', 'nvidia.com/gpu': '1' },
    }),
  ];
  await kubectl(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: nodes }));
  await kubectl(['apply', '--server-side', ...cluster.tools.crds.flatMap((f) => ['-f', f])]);
  await kubectl(['wait', '--for=condition=Established', '--timeout=120s', 'crd', '--all']);
  await kubectl(['apply', '-f', join(repoRoot, 'k8s', 'namespaces.yaml'), '-f', join(repoRoot, 'k8s', 'gpu')]);
  // The Secrets a platform engineer brings (bring-your-own profile).
  const rendered = await helm(['template', 'flatlay', chartDir, '-n', NAMESPACE, '--kube-version', version, ...values]);
  const objects = parseAllDocuments(rendered)
    .map((d) => d.toJS())
    .filter(Boolean);
  const made = new Set(objects.filter((o) => o.kind === 'Secret').map((o) => o.metadata.name));
  const keys = new Map();
  let expected = 0;
  for (const d of objects.filter((o) => o.kind === 'Deployment')) {
    for (const e of d.spec.template.spec.containers[0].env ?? []) {
      const ref = e.valueFrom?.secretKeyRef;
      if (ref && !made.has(ref.name)) keys.set(ref.name, (keys.get(ref.name) ?? new Set()).add(ref.key));
    }
    const hpa = objects.find(
      (o) => o.kind === 'HorizontalPodAutoscaler' && o.spec.scaleTargetRef.name === d.metadata.name,
    );
    expected += hpa ? hpa.spec.minReplicas : d.spec.replicas;
  }
  const secrets = [...keys].map(([name, ks]) => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: NAMESPACE },
    stringData: Object.fromEntries([...ks].map((k) => [k, randomBytes(24).toString('base64url')])),
  }));
  await kubectl(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: secrets }));

  const t0 = Date.now();
  await helm(['install', 'flatlay', chartDir, '-n', NAMESPACE, ...values, '--timeout', '20m']);
  /**
   * The fields of a Pod (kubectl get -o json) read here.
   * @typedef {{ status: { phase: string }, spec: { nodeName?: string }, metadata: { labels?: Record<string, string> } }} Pod
   */
  /** @type {Pod[]} */
  let pods = [];
  for (;;) {
    pods = JSON.parse(await kubectl(['get', 'pods', '-n', NAMESPACE, '-o', 'json'])).items;
    if (pods.length === expected && pods.every((p) => p.status.phase === 'Running' && p.spec.nodeName)) break;
    if (Date.now() - t0 > 20 * 60_000) throw new Error(`not converged: ${pods.length}/${expected} Pods`);
    await sleep(1000);
  }
  const seconds = ((Date.now() - t0) / 1000).toFixed(1);
  const onGpu = pods.filter((p) => p.spec.nodeName?.startsWith('gpu-'));
  /** @type {Record<string, number>} */
  const counts = {};
  for (const kind of [
    'nodes',
    'pods',
    'deployments',
    'replicasets',
    'services',
    'endpointslices',
    'secrets',
    'networkpolicies',
    'horizontalpodautoscalers',
    'poddisruptionbudgets',
    'kafkatopics',
    'kafkausers',
  ])
    counts[kind] = JSON.parse(await kubectl(['get', kind, '-A', '-o', 'json'])).items.length;
  console.log(
    `Kubernetes ${version}: ${nodes.length} kwok nodes (${SIZE.cpuNodes} CPU over 3 zones, ${SIZE.gpuNodes} GPU)`,
  );
  console.log(
    `${expected} Pods placed and Running ${seconds} s after helm install began; ${onGpu.length} on GPU nodes, all image workers: ${onGpu.every((p) => p.metadata.labels?.['app.kubernetes.io/component'] === 'image-worker')}`,
  );
  console.log(
    `API objects: ${Object.entries(counts)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
} finally {
  await cluster.stop();
}
