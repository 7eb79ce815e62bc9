// The Helm chart (charts/flatlay), checked offline: no cluster can run here, so the chart is
// linted, rendered for several value sets with the real helm binary (.infra/bin/helm, from
// `node scripts/infra.mjs install`), and the rendered objects are validated against their OpenAPI
// schemas (kubernetes-models, Strimzi and KEDA models from npm; no download) and held to the
// deployment's policies. Also checks that k8s/ and skaffold.yaml agree with what the chart renders,
// and that the values mirror the service registry (ports, topics, call edges, NetworkPolicies).
import { describe, it } from 'vitest';
import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { runHelm } from './support/helm.js';
import { parse, parseAllDocuments } from 'yaml';
import {
  calleesOf,
  deadLetterTopic,
  generationWorkQueue,
  registry,
  serviceNames,
  serviceTopics,
  type CallerName,
  type ServiceName,
} from '@flatlay/platform';
import { WORKER_MALLOC_ENV } from '../services/image/src/engine/process-env.js';
import { MAX_UPLOAD_BYTES } from '../services/image/src/domain/uploads.js';
import { MULTIPART_OVERHEAD_BYTES } from '../gateway/src/files/uploads.js';
import { BATCH_FILES } from '../gateway/src/routes/images.js';

const root = resolve(import.meta.dirname, '..');
const chartDir = join(root, 'charts', 'flatlay');
// The newest supported Kubernetes (scripts/infra/layout.mjs VERSIONS.kubernetes); the chart needs >= 1.35.
const KUBE_VERSION = '1.37.2';
const RELEASE = 'flatlay';
const NAMESPACE = 'flatlay';

const COMPONENTS = ['gateway', ...serviceNames, 'image-worker'];
/** The image worker runs the image service's code (its topics, its database). */
const callerOf = (component: string): 'gateway' | ServiceName =>
  component === 'image-worker' ? 'image' : (component as 'gateway' | ServiceName);
/** The services a component may call: every component has its own key and call edges (ADR 0008). */
const calleesOfComponent = (component: string): string[] => calleesOf(component as CallerName);
const GRPC_PORTS: Record<string, number> = Object.fromEntries(serviceNames.map((n) => [n, registry[n].grpcPort]));
const TOPICS = [...new Set(serviceNames.flatMap((n) => registry[n].publishes))];
const WORK_QUEUE = generationWorkQueue.topic;
/** Each consumer group's dead-letter topics (ADR 0009): one per topic it reads. */
const deadLettersOf = (consumes: { group?: string; topics: string[] }) =>
  consumes.group ? consumes.topics.map((t) => deadLetterTopic(t, consumes.group!)) : [];
const DEAD_LETTER_TOPICS = [
  ...serviceNames.flatMap((n) => deadLettersOf(registry[n].consumes ?? { topics: [] })),
  deadLetterTopic(generationWorkQueue.topic, generationWorkQueue.group),
];
/** Env names whose values are secrets: they must come from a Secret (secretKeyRef), never a literal. */
const SECRET_NAME = /(^|_)(SECRET|PASSWORD|PASSWD|TOKEN|KEY|CREDENTIALS?)(_|$)|^DATABASE_URL$|^REDIS_URL$/;
const GPU_TAINT_KEY = 'nvidia.com/gpu';
const GPU_POOL = { 'flatlay.dev/pool': 'gpu' };

// biome-ignore lint: rendered Kubernetes objects are untyped JSON
type K8s = any;

function helm(args: string[]): { status: number; out: string } {
  const r = runHelm(args);
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

interface ValueSet {
  name: string;
  files: string[];
  set?: string[];
  /** Components expected to render a Deployment. */
  enabled: string[];
  /** Whether the image worker is expected on the GPU pool. */
  gpuWorker: boolean;
  prod: boolean;
  /** Expected topic replicas (from the values). */
  topicReplicas: number;
}

const VALUE_SETS: ValueSet[] = [
  { name: 'default', files: [], enabled: COMPONENTS, gpuWorker: true, prod: false, topicReplicas: 3 },
  { name: 'dev', files: ['values-dev.yaml'], enabled: COMPONENTS, gpuWorker: false, prod: false, topicReplicas: 1 },
  { name: 'prod', files: ['values-prod.yaml'], enabled: COMPONENTS, gpuWorker: true, prod: true, topicReplicas: 3 },
  {
    name: 'prod-incluster',
    files: ['values-prod.yaml', 'values-incluster.yaml'],
    enabled: COMPONENTS,
    gpuWorker: true,
    prod: true,
    topicReplicas: 3,
  },
];

/** The chart's values as shipped: values.yaml, with an overlay's top-level sections merged over it. */
function shippedValues(files: string[]): K8s {
  const base = parse(readFileSync(join(chartDir, 'values.yaml'), 'utf8'));
  for (const f of files) {
    const overlay = parse(readFileSync(join(chartDir, f), 'utf8'));
    // Enough of Helm's deep merge for what these tests read (networkPolicy.egress entries are lists only).
    base.networkPolicy = {
      ...base.networkPolicy,
      ...overlay.networkPolicy,
      egress: { ...base.networkPolicy?.egress, ...overlay.networkPolicy?.egress },
    };
    for (const [name, c] of Object.entries<K8s>(overlay.components ?? {}))
      base.components[name] = { ...base.components[name], ...c };
  }
  return base;
}

function valuesArgs(vs: Pick<ValueSet, 'files' | 'set'>): string[] {
  return [...vs.files.flatMap((f) => ['--values', join(chartDir, f)]), ...(vs.set ?? []).flatMap((s) => ['--set', s])];
}

function template(vs: Pick<ValueSet, 'files' | 'set'>): { status: number; out: string } {
  return helm([
    'template',
    RELEASE,
    chartDir,
    '--namespace',
    NAMESPACE,
    '--kube-version',
    KUBE_VERSION,
    ...valuesArgs(vs),
  ]);
}

const rendered = new Map<string, K8s[]>();
function render(vs: ValueSet): K8s[] {
  const cached = rendered.get(vs.name);
  if (cached) return cached;
  const { status, out } = template(vs);
  assert.equal(status, 0, `helm template (${vs.name}) failed:\n${out}`);
  const docs = parseAllDocuments(out).map((d) => {
    assert.equal(d.errors.length, 0, `rendered YAML (${vs.name}) does not parse: ${d.errors.join('; ')}`);
    return d.toJS();
  });
  const objects = docs.filter((o) => o && typeof o === 'object');
  rendered.set(vs.name, objects);
  return objects;
}

/**
 * Validates one object against its OpenAPI schema: Kubernetes' own (kubernetes-models) or the
 * CRD's (Strimzi, KEDA, the Prometheus Operator). An object of a kind no model knows is an error, not a pass.
 */
async function validateSchema(o: K8s): Promise<void> {
  const [group = '', version = ''] = String(o.apiVersion).includes('/')
    ? String(o.apiVersion).split('/')
    : ['', String(o.apiVersion)];
  const module = group.endsWith('strimzi.io')
    ? `@kubernetes-models/strimzi-kafka-operator/${group}/${version}/${o.kind}`
    : group === 'postgresql.cnpg.io'
      ? `@kubernetes-models/cloudnative-pg/${group}/${version}/${o.kind}`
      : group === 'keda.sh'
        ? `@kubernetes-models/keda/${group}/${version}/${o.kind}`
        : group === 'monitoring.coreos.com'
          ? `@kubernetes-models/prometheus-operator/${group}/${version}/${o.kind}`
          : `kubernetes-models/${group ? `${group}/` : ''}${version}/${o.kind}`;
  let Model: (new (data: K8s) => { validate(): void }) | undefined;
  try {
    Model = (await import(module))[o.kind];
  } catch (e) {
    throw new Error(`no schema for ${o.apiVersion} ${o.kind} (${module}): ${(e as Error).message}`);
  }
  assert.ok(Model, `no model ${o.kind} in ${module}`);
  try {
    new Model(o).validate();
  } catch (e) {
    throw new Error(`${o.kind} ${o.metadata?.name} is not a valid ${o.apiVersion} object: ${(e as Error).message}`);
  }
}

/** The data services the chart can run in the cluster (Redis, MinIO): not Flatlay components. */
const isDataService = (o: K8s) => {
  const name = o.metadata?.labels?.['app.kubernetes.io/name'];
  return name !== undefined && name !== 'flatlay';
};
/** Objects of a kind; for the kinds the component template renders, the components' only. */
const ofKind = (objs: K8s[], kind: string) =>
  objs.filter(
    (o) =>
      o.kind === kind &&
      !(['Deployment', 'StatefulSet', 'Service', 'PodDisruptionBudget'].includes(kind) && isDataService(o)),
  );
const componentOf = (o: K8s): string => o.metadata?.labels?.['app.kubernetes.io/component'];
const matches = (selector: Record<string, string>, labels: Record<string, string> = {}) =>
  Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels[k] === v);
const containersOf = (d: K8s): K8s[] => [
  ...(d.spec.template.spec.initContainers ?? []),
  ...d.spec.template.spec.containers,
];

describe('charts/flatlay (helm lint, template and policies, offline)', () => {
  it('helm is installed in .infra/bin (fails, never skips, when missing)', () => {
    const { status, out } = helm(['version', '--short']);
    assert.equal(status, 0, out);
    assert.match(out, /^v3\./);
  });

  for (const vs of VALUE_SETS.filter((v) => !v.set)) {
    it(`helm lint --strict passes (${vs.name})`, () => {
      const { status, out } = helm([
        'lint',
        chartDir,
        '--strict',
        '--kube-version',
        KUBE_VERSION,
        '--namespace',
        NAMESPACE,
        ...valuesArgs(vs),
      ]);
      assert.equal(status, 0, out);
      assert.match(out, /0 chart\(s\) failed/);
    });
  }

  for (const vs of VALUE_SETS) {
    describe(`rendered with ${vs.name} values`, () => {
      it('has one Deployment per enabled component, and none for a disabled one', () => {
        const deployments = ofKind(render(vs), 'Deployment');
        assert.deepEqual(deployments.map(componentOf).sort(), [...vs.enabled].sort());
        assert.deepEqual(
          deployments.map((d) => d.metadata.name).sort(),
          vs.enabled.map((c) => `${RELEASE}-${c}`).sort(),
        );
        for (const d of deployments) {
          assert.ok(
            matches(d.spec.selector.matchLabels, d.spec.template.metadata.labels),
            `${d.metadata.name}: selector does not select its pods`,
          );
        }
      });

      it('renders only objects valid against their OpenAPI schemas (Kubernetes, Strimzi)', async () => {
        const objs = render(vs);
        for (const o of objs) await validateSchema(o);
        // What each value set renders, beyond the Deployments.
        const kinds = new Set(objs.map((o) => o.kind));
        for (const k of ['ServiceAccount', 'ConfigMap', 'Service', 'Ingress', 'KafkaTopic', 'KafkaUser'])
          assert.ok(kinds.has(k), `renders a ${k}`);
      });

      it('runs one image for every component, chosen by the container command', () => {
        const images = new Set<string>();
        for (const d of ofKind(render(vs), 'Deployment')) {
          const [c] = d.spec.template.spec.containers;
          images.add(c.image);
          const comp = componentOf(d);
          const entry =
            comp === 'gateway'
              ? 'gateway/dist/main.js'
              : comp === 'image-worker'
                ? 'services/image/dist/worker.js'
                : `services/${comp}/dist/main.js`;
          assert.deepEqual(c.command, ['node', entry], `${comp}: command`);
        }
        assert.equal(images.size, 1, `expected one image, got ${[...images].join(', ')}`);
        const [image = ''] = images;
        assert.match(
          image,
          /^[^:@\s]+(:[^:@\s]+)(@sha256:[a-f0-9]{64})?$/,
          `image must carry an explicit tag: ${image}`,
        );
        if (vs.prod) assert.doesNotMatch(image, /:latest(@|$)/, 'prod must not deploy a :latest tag');
      });

      it('gives every container resources, probes and a non-root, read-only, capability-free security context', () => {
        for (const d of ofKind(render(vs), 'Deployment')) {
          const pod = d.spec.template.spec;
          const name = d.metadata.name;
          assert.equal(pod.securityContext?.runAsNonRoot, true, `${name}: pod runAsNonRoot`);
          assert.ok(pod.securityContext?.runAsUser > 0, `${name}: pod runAsUser is not root`);
          // Only analytics talks to the Kubernetes API (the GPU pool: get/list nodes and pods, nothing else).
          const reader = componentOf(d) === 'analytics';
          assert.equal(pod.automountServiceAccountToken, reader, `${name}: an API token only for the GPU pool reader`);
          if (reader) {
            const rules = [...ofKind(render(vs), 'Role'), ...ofKind(render(vs), 'ClusterRole')].flatMap((r) => r.rules);
            assert.deepEqual(rules.map((r: K8s) => `${r.resources.join()}:${r.verbs.join()}`).sort(), [
              'nodes:get,list',
              'pods:get,list',
            ]);
          }
          for (const c of containersOf(d)) {
            const where = `${name}/${c.name}`;
            assert.ok(c.resources?.requests?.cpu, `${where}: cpu request`);
            assert.ok(c.resources?.requests?.memory, `${where}: memory request`);
            assert.ok(c.resources?.limits?.memory, `${where}: memory limit`);
            const sc = c.securityContext ?? {};
            assert.equal(sc.runAsNonRoot, true, `${where}: runAsNonRoot`);
            assert.equal(sc.allowPrivilegeEscalation, false, `${where}: allowPrivilegeEscalation`);
            assert.equal(sc.readOnlyRootFilesystem, true, `${where}: readOnlyRootFilesystem`);
            assert.ok(sc.capabilities?.drop?.includes('ALL'), `${where}: drops ALL capabilities`);
            assert.ok(!sc.privileged, `${where}: not privileged`);
            // A read-only root needs a writable /tmp.
            assert.ok(
              c.volumeMounts?.some((m: K8s) => m.mountPath === '/tmp'),
              `${where}: /tmp mounted`,
            );
            for (const kind of ['readinessProbe', 'livenessProbe']) {
              const probe = c[kind];
              assert.ok(probe, `${where}: ${kind}`);
              if (componentOf(d) === 'gateway') {
                assert.equal(probe.httpGet?.path, '/healthz', `${where}: ${kind} is GET /healthz`);
                assert.equal(
                  c.ports.find((p: K8s) => p.name === probe.httpGet.port)?.containerPort,
                  8080,
                  `${where}: ${kind} on the HTTP port`,
                );
              } else {
                assert.ok(probe.grpc, `${where}: ${kind} uses the gRPC health protocol`);
                assert.equal(probe.grpc.port, c.ports[0].containerPort, `${where}: ${kind} on the gRPC port`);
                const grpcPort = c.env.find((e: K8s) => e.name === 'GRPC_PORT')?.value;
                assert.equal(
                  Number(grpcPort),
                  c.ports[0].containerPort,
                  `${where}: GRPC_PORT matches the container port`,
                );
              }
            }
          }
          const comp = componentOf(d);
          if (GRPC_PORTS[comp])
            assert.equal(pod.containers[0].ports[0].containerPort, GRPC_PORTS[comp], `${comp}: default gRPC port`);
        }
      });

      it('references every secret value (secretKeyRef), never inlines one, and creates only generated Secrets', () => {
        const objs = render(vs);
        // The only Secrets the chart makes are credentials it generates (values never hold a secret),
        // kept on upgrade and uninstall.
        for (const secret of ofKind(objs, 'Secret')) {
          assert.equal(
            secret.metadata.annotations?.['helm.sh/resource-policy'],
            'keep',
            `${secret.metadata.name}: kept`,
          );
          assert.equal(secret.stringData, undefined, `${secret.metadata.name}: no stringData from values`);
        }
        for (const cm of ofKind(objs, 'ConfigMap')) {
          for (const key of Object.keys(cm.data ?? {}))
            assert.doesNotMatch(key, SECRET_NAME, `ConfigMap ${cm.metadata.name} holds ${key}`);
        }
        for (const d of ofKind(objs, 'Deployment')) {
          for (const c of containersOf(d)) {
            for (const e of c.env ?? []) {
              // A *_FILE setting names where a mounted Secret's file is (SERVICE_PRIVATE_KEY_FILE), not a value.
              if (!SECRET_NAME.test(e.name) || e.name.endsWith('_FILE')) continue;
              assert.equal(e.value, undefined, `${d.metadata.name}: ${e.name} has a literal value`);
              assert.ok(
                e.valueFrom?.secretKeyRef?.name && e.valueFrom.secretKeyRef.key,
                `${d.metadata.name}: ${e.name} must come from a secretKeyRef`,
              );
            }
            assert.ok(
              !(c.envFrom ?? []).some((s: K8s) => s.secretRef && !s.secretRef.name),
              `${d.metadata.name}: envFrom secret without a name`,
            );
          }
          const comp = componentOf(d);
          const db = d.spec.template.spec.containers[0].env.find((e: K8s) => e.name === 'DATABASE_URL');
          if (comp === 'gateway') assert.equal(db, undefined, 'the gateway has no database');
          else assert.ok(db?.valueFrom?.secretKeyRef, `${comp}: DATABASE_URL from its own Secret`);
        }
        // One database per service: no two services share a DATABASE_URL Secret (the worker is the image service's).
        const dbSecret = (comp: string) =>
          ofKind(objs, 'Deployment')
            .find((d) => componentOf(d) === comp)
            ?.spec.template.spec.containers[0].env.find((e: K8s) => e.name === 'DATABASE_URL')?.valueFrom.secretKeyRef
            .name;
        const services = vs.enabled.filter((c) => c !== 'gateway' && c !== 'image-worker');
        assert.equal(new Set(services.map(dbSecret)).size, services.length, 'each service has its own database Secret');
        if (vs.enabled.includes('image-worker')) assert.equal(dbSecret('image-worker'), dbSecret('image'));
      });

      it(
        vs.gpuWorker
          ? 'puts the image worker on the GPU pool: nvidia.com/gpu, GPU taint tolerated'
          : 'keeps GPU requests off every Deployment',
        () => {
          const deployments = ofKind(render(vs), 'Deployment');
          const worker = deployments.find((d) => componentOf(d) === 'image-worker');
          for (const d of deployments.filter((x) => x !== worker || !vs.gpuWorker)) {
            const c = d.spec.template.spec.containers[0];
            assert.equal(c.resources.limits?.[GPU_TAINT_KEY], undefined, `${d.metadata.name}: no GPU`);
            assert.ok(
              !(d.spec.template.spec.tolerations ?? []).some((t: K8s) => t.key === GPU_TAINT_KEY),
              `${d.metadata.name}: does not tolerate the GPU taint`,
            );
          }
          if (!vs.gpuWorker) return;
          assert.ok(worker, 'image-worker Deployment');
          const pod = worker.spec.template.spec;
          const c = pod.containers[0];
          assert.ok(Number(c.resources.requests[GPU_TAINT_KEY]) >= 1, 'requests nvidia.com/gpu');
          assert.equal(
            c.resources.limits[GPU_TAINT_KEY],
            c.resources.requests[GPU_TAINT_KEY],
            'GPU limit equals request',
          );
          assert.ok(
            pod.tolerations?.some(
              (t: K8s) => t.key === GPU_TAINT_KEY && t.effect === 'NoSchedule' && (t.operator === 'Exists' || t.value),
            ),
            'tolerates the nvidia.com/gpu:NoSchedule taint',
          );
          assert.deepEqual(pod.nodeSelector, GPU_POOL, 'selects the GPU node pool');
          assert.equal(pod.runtimeClassName, 'nvidia');
          assert.ok(
            !c.env.some((e: K8s) => e.name === 'GRPC_PORT' && Object.values(GRPC_PORTS).includes(Number(e.value))),
            'the worker does not take a service port',
          );
          // the engine's memory budget was measured with these; the worker must run with them
          for (const [name, value] of Object.entries(WORKER_MALLOC_ENV)) {
            assert.equal(c.env.find((e: K8s) => e.name === name)?.value, value, `image-worker env ${name}`);
          }
        },
      );

      it('has every Service select exactly one existing Deployment, on a named container port', () => {
        const objs = render(vs);
        const deployments = ofKind(objs, 'Deployment');
        const services = ofKind(objs, 'Service');
        assert.ok(services.length > 0);
        for (const s of services) {
          const selected = deployments.filter((d) => matches(s.spec.selector, d.spec.template.metadata.labels));
          assert.equal(selected.length, 1, `Service ${s.metadata.name} selects ${selected.length} Deployments`);
          const ports = selected[0].spec.template.spec.containers.flatMap((c: K8s) => c.ports ?? []);
          for (const p of s.spec.ports) {
            assert.ok(
              ports.some((cp: K8s) => cp.name === p.targetPort || cp.containerPort === p.targetPort),
              `Service ${s.metadata.name}: targetPort ${p.targetPort}`,
            );
          }
        }
        // The worker takes no traffic; every other enabled component is reachable.
        const withService = services.map(componentOf).sort();
        assert.deepEqual(withService, vs.enabled.filter((c) => c !== 'image-worker').sort());
      });

      it('wires the gateway to each service by its Service name and port', () => {
        const objs = render(vs);
        const gateway = ofKind(objs, 'Deployment').find((d) => componentOf(d) === 'gateway');
        const env = Object.fromEntries(gateway.spec.template.spec.containers[0].env.map((e: K8s) => [e.name, e.value]));
        for (const svc of ['identity', 'ledger', 'image', 'billing', 'analytics']) {
          assert.equal(env[`${svc.toUpperCase()}_ADDR`], `${RELEASE}-${svc}:${GRPC_PORTS[svc]}`);
          const service = ofKind(objs, 'Service').find((s) => s.metadata.name === `${RELEASE}-${svc}`);
          assert.equal(service?.spec.ports[0].port, GRPC_PORTS[svc], `${svc}: Service port`);
        }
        const ingress = ofKind(objs, 'Ingress');
        assert.equal(ingress.length, 1, 'one Ingress, for the gateway');
        for (const rule of ingress[0].spec.rules) {
          for (const p of rule.http.paths) {
            const svc = ofKind(objs, 'Service').find((s) => s.metadata.name === p.backend.service.name);
            assert.equal(componentOf(svc), 'gateway');
            assert.equal(p.backend.service.port.number, svc.spec.ports[0].port);
          }
        }
        const cm = ofKind(objs, 'ConfigMap')[0];
        assert.ok(cm.data.KAFKA_BROKERS, 'KAFKA_BROKERS in the ConfigMap');
        for (const d of ofKind(objs, 'Deployment')) {
          assert.ok(
            d.spec.template.spec.containers[0].envFrom.some((s: K8s) => s.configMapRef?.name === cm.metadata.name),
            `${d.metadata.name}: reads the ConfigMap`,
          );
          assert.equal(
            d.spec.template.spec.serviceAccountName,
            componentOf(d) === 'analytics'
              ? `${RELEASE}-analytics-gpu-pool`
              : ofKind(objs, 'ServiceAccount').find((a) => !a.metadata.name.endsWith('-gpu-pool'))?.metadata.name,
            `${d.metadata.name}: the chart's ServiceAccount (analytics: its GPU pool reader's)`,
          );
        }
      });

      it('declares exactly the Kafka topics as Strimzi KafkaTopics, the work queue widest', () => {
        const all = ofKind(render(vs), 'KafkaTopic');
        const expected = [...TOPICS, ...DEAD_LETTER_TOPICS].sort();
        assert.deepEqual(all.map((t) => t.spec.topicName).sort(), expected);
        assert.deepEqual(all.map((t) => t.metadata.name).sort(), expected);
        const deadLetters = all.filter((t) => DEAD_LETTER_TOPICS.includes(t.spec.topicName));
        for (const t of deadLetters) {
          assert.equal(t.spec.partitions, 1, `${t.spec.topicName}: one partition`);
          assert.equal(t.spec.config['retention.ms'], -1, `${t.spec.topicName}: kept until dealt with`);
        }
        const topics = all.filter((t) => !deadLetters.includes(t));
        for (const t of all) {
          assert.equal(t.apiVersion, 'kafka.strimzi.io/v1', 'Strimzi 1.x serves kafka.strimzi.io/v1 only');
          assert.equal(t.metadata.labels['strimzi.io/cluster'], 'flatlay');
          assert.ok(Number.isInteger(t.spec.partitions) && t.spec.partitions >= 1, `${t.spec.topicName}: partitions`);
          assert.equal(t.spec.replicas, vs.topicReplicas, `${t.spec.topicName}: replicas`);
          if (vs.topicReplicas > 1)
            assert.ok(
              Number(t.spec.config['min.insync.replicas']) < vs.topicReplicas,
              `${t.spec.topicName}: min.insync.replicas below replicas`,
            );
        }
        const queue = topics.find((t) => t.spec.topicName === WORK_QUEUE);
        for (const t of topics.filter((x) => x !== queue))
          assert.ok(
            queue.spec.partitions > t.spec.partitions,
            `${WORK_QUEUE} has more partitions than ${t.spec.topicName}`,
          );
      });

      it('gives every Kafka client its own KafkaUser, with ACLs for its own topics and consumer group only', () => {
        const objs = render(vs);
        const users = ofKind(objs, 'KafkaUser');
        const secrets = ofKind(objs, 'Secret');
        const kafkaClients = vs.enabled.filter((c) => c !== 'gateway');
        assert.deepEqual(users.map(componentOf).sort(), [...kafkaClients].sort(), 'one KafkaUser per Kafka client');
        for (const comp of kafkaClients) {
          const user = users.find((u) => componentOf(u) === comp);
          const name = `${RELEASE}-${comp}`;
          const secretName = `${RELEASE}-kafka-${comp}`;
          assert.equal(user.apiVersion, 'kafka.strimzi.io/v1');
          assert.equal(user.metadata.name, name);
          assert.equal(user.metadata.labels['strimzi.io/cluster'], 'flatlay');
          assert.equal(user.spec.authentication.type, 'scram-sha-512');
          assert.deepEqual(user.spec.authentication.password.valueFrom.secretKeyRef, {
            name: secretName,
            key: 'password',
          });
          // What the registry says this component writes, reads and in which group.
          const entry = registry[callerOf(comp) as ServiceName];
          const expected =
            comp === 'image-worker'
              ? { publishes: entry.publishes, consumes: [generationWorkQueue.topic], group: generationWorkQueue.group }
              : { publishes: entry.publishes, consumes: entry.consumes?.topics ?? [], group: entry.consumes?.group };
          const acl = (type: string, op: string) =>
            user.spec.authorization.acls
              .filter((a: K8s) => a.resource.type === type && a.operations.includes(op))
              .map((a: K8s) => a.resource.name)
              .sort();
          assert.equal(user.spec.authorization.type, 'simple');
          // Analytics serves the admin's dead-letter calls (ADR 0009): it also reads every group's
          // dead letters and may put one back on its source topic, in the operator's groups.
          const operator = comp === 'analytics';
          const sources = operator
            ? [...new Set([...serviceNames.flatMap((n) => registry[n].consumes?.topics ?? []), WORK_QUEUE])].filter(
                (t) => !expected.publishes.includes(t),
              )
            : [];
          for (const a of user.spec.authorization.acls) {
            if (operator && a.resource.type === 'group' && a.resource.patternType === 'prefix') {
              assert.equal(a.resource.name, 'flatlay-dead-letters-reader-', 'the one prefix ACL: throwaway readers');
              continue;
            }
            assert.equal(a.resource.patternType, 'literal', `${comp}: no prefix or wildcard ACL`);
            assert.equal(a.type ?? 'allow', 'allow');
            assert.ok(!a.operations.includes('All'), `${comp}: no All operation`);
          }
          assert.deepEqual(
            acl('topic', 'Write'),
            [
              ...expected.publishes,
              ...deadLettersOf({ group: expected.group, topics: expected.consumes }),
              ...sources,
            ].sort(),
            `${comp}: writes exactly its own topics and its group's dead letters (the operator: and replays)`,
          );
          assert.deepEqual(
            acl('topic', 'Read'),
            [...expected.consumes, ...(operator ? DEAD_LETTER_TOPICS : [])].sort(),
            `${comp}: reads exactly its own topics (the operator: and every dead letter)`,
          );
          assert.deepEqual(
            acl('group', 'Read'),
            [
              ...(expected.group ? [expected.group] : []),
              ...(operator ? ['flatlay-dead-letters', 'flatlay-dead-letters-reader-'] : []),
            ].sort(),
            `${comp}: its own consumer group (the operator: and the dead-letter groups)`,
          );
          assert.deepEqual(acl('cluster', 'Describe'), [], `${comp}: nothing cluster-wide`);
          assert.deepEqual(
            user.spec.authorization.acls
              .map((a: K8s) => a.resource.type)
              .filter((t: string) => t !== 'topic' && t !== 'group'),
            [],
          );
          // The service checks at start that each of its topics exists (ensureTopics lists them).
          const described = acl('topic', 'Describe');
          for (const t of serviceTopics(callerOf(comp) as ServiceName))
            assert.ok(described.includes(t.name), `${comp}: may describe ${t.name}`);
          // Its credentials: a generated Secret, read by its pods.
          const secret = secrets.find((x) => x.metadata.name === secretName);
          assert.ok(secret, `${comp}: Secret ${secretName}`);
          assert.deepEqual(Object.keys(secret.data).sort(), ['password', 'username']);
          assert.equal(Buffer.from(secret.data.username, 'base64').toString(), name);
          assert.ok(
            Buffer.from(secret.data.password, 'base64').toString().length >= 32,
            `${comp}: a long generated password`,
          );
          const env = ofKind(objs, 'Deployment').find((d) => componentOf(d) === comp).spec.template.spec.containers[0]
            .env;
          for (const [variable, key] of [
            ['KAFKA_SASL_USERNAME', 'username'],
            ['KAFKA_SASL_PASSWORD', 'password'],
          ])
            assert.deepEqual(
              env.find((e: K8s) => e.name === variable)?.valueFrom?.secretKeyRef,
              { name: secretName, key },
              `${comp}: ${variable}`,
            );
        }
        const gateway = ofKind(objs, 'Deployment').find((d) => componentOf(d) === 'gateway');
        assert.ok(
          !gateway.spec.template.spec.containers[0].env.some((e: K8s) => e.name.startsWith('KAFKA_SASL_')),
          'the gateway is no Kafka client',
        );
      });

      it(
        vs.prod
          ? 'protects and autoscales the request path (PDB, HPA) and spreads it over zones'
          : 'renders no PDB or HPA',
        () => {
          const objs = render(vs);
          const deployments = ofKind(objs, 'Deployment');
          const pdbs = ofKind(objs, 'PodDisruptionBudget');
          const hpas = ofKind(objs, 'HorizontalPodAutoscaler');
          if (!vs.prod) {
            assert.equal(pdbs.length + hpas.length, 0);
            return;
          }
          for (const d of deployments) {
            const comp = componentOf(d);
            assert.equal(
              pdbs.filter((p) => matches(p.spec.selector.matchLabels, d.spec.template.metadata.labels)).length,
              1,
              `${comp}: one PDB`,
            );
            const hpa = hpas.find((h) => h.spec.scaleTargetRef.name === d.metadata.name);
            if (comp === 'image-worker') {
              assert.equal(hpa, undefined, 'the worker scales on Kafka lag (KEDA), not on CPU');
              continue;
            }
            assert.ok(hpa, `${comp}: HPA`);
            assert.equal(hpa.spec.scaleTargetRef.kind, 'Deployment');
            assert.ok(hpa.spec.minReplicas >= 2 && hpa.spec.maxReplicas >= hpa.spec.minReplicas, `${comp}: HPA bounds`);
            assert.equal(d.spec.replicas, undefined, `${comp}: replicas left to the HPA`);
            assert.ok(d.spec.template.spec.topologySpreadConstraints?.length, `${comp}: spread over zones`);
          }
          for (const h of hpas)
            assert.ok(
              deployments.some((d) => d.metadata.name === h.spec.scaleTargetRef.name),
              `HPA ${h.metadata.name} targets a Deployment`,
            );
        },
      );

      it('mirrors the service registry: ports and call edges (<NAME>_ADDR) of every component', () => {
        const objs = render(vs);
        for (const d of ofKind(objs, 'Deployment')) {
          const comp = componentOf(d);
          const c = d.spec.template.spec.containers[0];
          if (comp === 'gateway')
            assert.equal(c.ports[0].containerPort, registry.gateway.httpPort, 'gateway: HTTP port');
          else if (comp !== 'image-worker')
            assert.equal(c.ports[0].containerPort, registry[comp as ServiceName].grpcPort, `${comp}: gRPC port`);
          const calls = c.env
            .filter((e: K8s) => e.name.endsWith('_ADDR'))
            .map((e: K8s) => e.name.replace(/_ADDR$/, '').toLowerCase())
            .sort();
          assert.deepEqual(
            calls,
            [...calleesOfComponent(comp)].sort(),
            `${comp}: calls exactly the services the registry lets it call`,
          );
        }
      });

      it("gives every component its own service key (and a gRPC service every component's public key), identity its signing key, and the gateway TRUST_PROXY", () => {
        const objs = render(vs);
        const values = shippedValues(vs.files);
        const keySecret = (comp: string) => `${values.serviceIdentity.secretPrefix}${comp}`;
        assert.deepEqual([...values.serviceIdentity.components].sort(), [...COMPONENTS].sort());
        for (const d of ofKind(objs, 'Deployment')) {
          const comp = componentOf(d);
          const pod = d.spec.template.spec;
          const c = pod.containers[0];
          const env = c.env;
          const value = (name: string) => env.find((e: K8s) => e.name === name)?.value;
          assert.ok(!env.some((e: K8s) => e.name === 'SERVICE_AUTH_SECRET'), `${comp}: no SERVICE_AUTH_SECRET`);
          const mountOf = (path: string) => {
            const mount = c.volumeMounts.find((m: K8s) => path.startsWith(`${m.mountPath}/`));
            assert.ok(mount?.readOnly, `${comp}: ${path} on a read-only mount`);
            return {
              volume: pod.volumes.find((v: K8s) => v.name === mount.name),
              file: path.slice(mount.mountPath.length + 1),
            };
          };
          // Its own private key, and no other component's: the one item of its own Secret.
          const own = mountOf(value('SERVICE_PRIVATE_KEY_FILE'));
          assert.equal(own.volume.secret?.secretName, keySecret(comp), `${comp}: its own key Secret`);
          assert.deepEqual(
            own.volume.secret.items,
            [{ key: 'private.pem', path: own.file }],
            `${comp}: only private.pem`,
          );
          for (const v of pod.volumes) {
            const sources = [
              v.secret && { name: v.secret.secretName, items: v.secret.items },
              ...(v.projected?.sources ?? []).map((x: K8s) => x.secret),
            ].filter(Boolean);
            for (const src of sources)
              if (src.name !== keySecret(comp) && String(src.name).startsWith(values.serviceIdentity.secretPrefix))
                assert.deepEqual(
                  src.items.map((i: K8s) => i.key),
                  ['public.pem'],
                  `${comp}: only the public key of ${src.name}`,
                );
          }
          if (comp === 'gateway')
            assert.equal(value('SERVICE_PUBLIC_KEYS_DIR'), undefined, 'the gateway serves no gRPC');
          else {
            // Every component's public key as <component>.pem, in the folder it reads.
            const dir = value('SERVICE_PUBLIC_KEYS_DIR');
            const { volume } = mountOf(`${dir}/x`);
            assert.deepEqual(
              volume.projected.sources.map((x: K8s) => [x.secret.name, x.secret.items]),
              COMPONENTS.map((k) => [keySecret(k), [{ key: 'public.pem', path: `${k}.pem` }]]),
              `${comp}: every component's public key`,
            );
          }
          if (comp === 'identity') {
            // NODE_ENV=production refuses a process-lifetime key; every replica must sign with the same one.
            const key = env.find((e: K8s) => e.name === 'JWT_PRIVATE_KEY');
            assert.ok(
              key?.valueFrom?.secretKeyRef?.name && key.valueFrom.secretKeyRef.key,
              'identity: JWT_PRIVATE_KEY from a Secret',
            );
          }
          if (comp === 'gateway' && values.ingress?.enabled) {
            assert.equal(
              env.find((e: K8s) => e.name === 'TRUST_PROXY')?.value,
              '1',
              'gateway: trusts one proxy hop (the ingress controller)',
            );
          }
        }
        // The gateway stores uploads in the image service's bucket and checks the URLs it signs:
        // the same bucket credentials and URL key Secret as the image service.
        const secretRefs = (comp: string) => {
          const d = ofKind(objs, 'Deployment').find((x) => componentOf(x) === comp);
          const env = d?.spec.template.spec.containers[0].env ?? [];
          return Object.fromEntries(
            ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'IMAGE_URL_SIGNING_KEY'].map((name) => [
              name,
              env.find((e: K8s) => e.name === name)?.valueFrom?.secretKeyRef,
            ]),
          );
        };
        if (vs.enabled.includes('gateway') && vs.enabled.includes('image')) {
          const gateway = secretRefs('gateway');
          for (const name of Object.keys(gateway)) assert.ok(gateway[name]?.name, `gateway: ${name} from a Secret`);
          assert.deepEqual(gateway, secretRefs('image'), 'gateway and image: the same bucket and URL key Secrets');
        }
        if (vs.prod) assert.equal(ofKind(objs, 'ConfigMap')[0].data.NODE_ENV, 'production');
      });

      it('denies all traffic by default and allows only the declared gRPC edges, the ingress controller, DNS and backing services', () => {
        const objs = render(vs);
        const values = shippedValues(vs.files);
        const policies = ofKind(objs, 'NetworkPolicy');
        const deployments = ofKind(objs, 'Deployment');
        const deny = policies.filter((p) => !p.spec.ingress && !p.spec.egress);
        assert.equal(deny.length, 1, 'one default-deny policy');
        assert.deepEqual([...deny[0].spec.policyTypes].sort(), ['Egress', 'Ingress']);
        for (const d of deployments)
          assert.ok(
            matches(deny[0].spec.podSelector.matchLabels, d.spec.template.metadata.labels),
            `default deny selects ${d.metadata.name}`,
          );

        const podComponent = (peer: K8s) => peer.podSelector?.matchLabels?.['app.kubernetes.io/component'];
        for (const d of deployments) {
          const comp = componentOf(d);
          const own = policies.filter(
            (p) => p !== deny[0] && matches(p.spec.podSelector.matchLabels, d.spec.template.metadata.labels),
          );
          assert.equal(own.length, 1, `${comp}: one NetworkPolicy`);
          const [policy] = own;
          assert.deepEqual([...policy.spec.policyTypes].sort(), ['Egress', 'Ingress']);
          const port = d.spec.template.spec.containers[0].ports[0].containerPort;
          // Ingress: exactly the enabled components that may call this one, on its port.
          const isService = comp !== 'gateway' && comp !== 'image-worker';
          const callers = isService ? vs.enabled.filter((other) => calleesOfComponent(other).includes(comp)) : [];
          // The monitoring namespace reaches the metrics port (METRICS_PORT, the port named
          // `metrics`), and only that port; no other rule names the metrics port.
          const [container] = d.spec.template.spec.containers;
          const metricsPort = container.ports.find((p: K8s) => p.name === 'metrics')?.containerPort;
          assert.equal(metricsPort, values.metrics.port, `${comp}: a container port named metrics`);
          assert.equal(
            container.env.find((e: K8s) => e.name === 'METRICS_PORT')?.value,
            String(metricsPort),
            `${comp}: METRICS_PORT is the metrics port`,
          );
          const scrapes = policy.spec.ingress.filter((r: K8s) => r.ports.some((p: K8s) => p.port === metricsPort));
          assert.deepEqual(
            scrapes,
            [
              {
                from: [{ namespaceSelector: values.monitoring.namespaceSelector }],
                ports: [{ port: metricsPort, protocol: 'TCP' }],
              },
            ],
            `${comp}: the monitoring namespace reaches the metrics port, nothing else`,
          );
          const serving = policy.spec.ingress.filter((r: K8s) => !scrapes.includes(r));
          const fromPods = serving.flatMap((r: K8s) => r.from.map(podComponent).filter(Boolean));
          assert.deepEqual(fromPods.sort(), [...callers].sort(), `${comp}: gRPC callers`);
          for (const r of serving)
            assert.deepEqual(
              r.ports.map((p: K8s) => p.port),
              [port],
              `${comp}: ingress only on its port`,
            );
          const fromController = serving.filter((r: K8s) => r.from.some((peer: K8s) => !podComponent(peer)));
          if (comp === 'gateway')
            assert.deepEqual(
              fromController.map((r: K8s) => r.from),
              [values.networkPolicy.ingressController],
              'gateway: from the ingress controller',
            );
          else assert.equal(fromController.length, 0, `${comp}: nothing from outside the release`);
          // Egress: DNS, each service it calls on that service's port, and its backing services.
          const egress = policy.spec.egress;
          assert.ok(
            egress.some(
              (r: K8s) =>
                JSON.stringify(r.to) === JSON.stringify(values.networkPolicy.dns) &&
                r.ports.some((p: K8s) => p.port === 53 && p.protocol === 'UDP'),
            ),
            `${comp}: DNS`,
          );
          const toPods = egress.flatMap((r: K8s) => r.to.map(podComponent).filter(Boolean));
          const callees = vs.enabled.filter(
            (c) => c !== 'gateway' && c !== 'image-worker' && calleesOfComponent(comp).includes(c),
          );
          const env = d.spec.template.spec.containers[0].env;
          const addrs = env
            .filter((e: K8s) => e.name.endsWith('_ADDR'))
            .map((e: K8s) => e.name.replace(/_ADDR$/, '').toLowerCase());
          assert.deepEqual(toPods.sort(), callees.filter((c) => addrs.includes(c)).sort(), `${comp}: gRPC egress`);
          for (const callee of toPods) {
            const rule = egress.find((r: K8s) => r.to.some((peer: K8s) => podComponent(peer) === callee));
            assert.deepEqual(
              rule.ports.map((p: K8s) => p.port),
              [GRPC_PORTS[callee]],
              `${comp} -> ${callee}: on its gRPC port`,
            );
          }
          const needs = (dep: string) => values.networkPolicy.egress[dep]?.components?.includes(comp);
          const reaches = (dep: string) => {
            const want = values.networkPolicy.egress[dep];
            const ports = (rule: K8s) => JSON.stringify(rule.ports.map((p: K8s) => p.port));
            return egress.some(
              (r: K8s) => JSON.stringify(r.to) === JSON.stringify(want.to) && ports(r) === ports(want),
            );
          };
          const has = (name: string) => env.some((e: K8s) => e.name === name);
          if (has('DATABASE_URL')) assert.ok(needs('postgres') && reaches('postgres'), `${comp}: reaches Postgres`);
          if (has('REDIS_URL')) assert.ok(needs('redis') && reaches('redis'), `${comp}: reaches Redis`);
          if (has('S3_ACCESS_KEY_ID'))
            assert.ok(needs('objectStorage') && reaches('objectStorage'), `${comp}: reaches object storage`);
          if (comp !== 'gateway') assert.ok(needs('kafka') && reaches('kafka'), `${comp}: reaches Kafka`);
          // Nothing else (a backing service at the same address and port as one it needs is the same rule).
          const key = (dep: string) =>
            JSON.stringify([
              values.networkPolicy.egress[dep].to,
              values.networkPolicy.egress[dep].ports.map((p: K8s) => p.port),
            ]);
          const deps = Object.keys(values.networkPolicy.egress);
          for (const dep of deps.filter((x) => !needs(x) && !deps.some((y) => needs(y) && key(y) === key(x))))
            assert.ok(!reaches(dep), `${comp}: no egress to ${dep}`);
          assert.equal(
            egress.length,
            1 + toPods.length + deps.filter(needs).length,
            `${comp}: DNS, its callees and its backing services, nothing else`,
          );
        }
      });

      it("lets analytics reach the providers' APIs (its settings Test) and the Kubernetes API (its GPU pool panel)", () => {
        const objs = render(vs);
        const values = shippedValues(vs.files);
        const policy = ofKind(objs, 'NetworkPolicy').find(
          (p) => p.spec.podSelector.matchLabels?.['app.kubernetes.io/component'] === 'analytics',
        );
        const ports = (r: K8s) => r.ports.map((p: K8s) => p.port);
        // Stripe's and the generative provider's APIs: HTTPS anywhere outside the private ranges,
        // as billing and image reach them.
        assert.ok(
          policy.spec.egress.some(
            (r: K8s) => r.to.some((peer: K8s) => peer.ipBlock?.cidr === '0.0.0.0/0') && ports(r).includes(443),
          ),
          'analytics: HTTPS to the public APIs',
        );
        // The API server, where it answers after the kubernetes Service's DNAT (443 and 6443).
        const api = values.networkPolicy.egress.kubernetesApi;
        assert.ok(
          policy.spec.egress.some(
            (r: K8s) =>
              JSON.stringify(r.to) === JSON.stringify(api.to) && ports(r).includes(443) && ports(r).includes(6443),
          ),
          'analytics: the Kubernetes API server',
        );
        // Only analytics talks to the API, with the token of its own read-only account.
        for (const d of ofKind(objs, 'Deployment')) {
          const comp = componentOf(d);
          assert.equal(d.spec.template.spec.automountServiceAccountToken, comp === 'analytics', `${comp}: API token`);
          if (comp !== 'analytics') assert.ok(!api.components.includes(comp), `${comp}: no egress to the API server`);
        }
      });

      it('lets the ingress take the largest request: a batch of 20 files of 10 MB with its multipart overhead', () => {
        const [ingress] = ofKind(render(vs), 'Ingress');
        assert.equal(ingress.spec.ingressClassName, 'nginx');
        const size = String(ingress.metadata.annotations?.['nginx.ingress.kubernetes.io/proxy-body-size'] ?? '1m');
        const match = /^(\d+)([kmg]?)$/i.exec(size);
        assert.ok(match, `proxy-body-size ${size}`);
        const unit = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[match[2]!.toLowerCase() as '' | 'k' | 'm' | 'g'];
        assert.ok(
          Number(match[1]) * unit >= BATCH_FILES * MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD_BYTES,
          `proxy-body-size ${size} takes a batch of ${BATCH_FILES} uploads`,
        );
      });

      // The gateway compresses (brotli, gzip; files precompressed at build) and never the live-status
      // stream (ADR 0713): an annotation that switched the controller's compression on or off, or a
      // snippet with gzip/brotli directives, would repeat the work or undo it, stream included.
      it('leaves compression to the gateway: no ingress annotation turns it on, off or repeats it', () => {
        for (const ingress of ofKind(render(vs), 'Ingress')) {
          for (const [key, value] of Object.entries<string>(ingress.metadata.annotations ?? {}))
            assert.doesNotMatch(`${key}: ${value}`, /gzip|brotli|compress/i, `${ingress.metadata.name}: ${key}`);
        }
      });
    });
  }

  it("mounts a component's own files (billing's catalogue) read-only at /etc/flatlay and rolls it when they change", () => {
    const catalogue = join(chartDir, '..', '..', 'services', 'billing', 'catalogue.json');
    const withCatalogue = (file: string) =>
      helm([
        'template',
        RELEASE,
        chartDir,
        '--namespace',
        NAMESPACE,
        '--kube-version',
        KUBE_VERSION,
        '--set-file',
        `components.billing.files.catalogue\\.json=${file}`,
        '--set',
        'components.billing.env.BILLING_CATALOGUE_FILE=/etc/flatlay/catalogue.json',
      ]);
    const { status, out } = withCatalogue(catalogue);
    assert.equal(status, 0, out);
    const objects = parseAllDocuments(out).map((d) => d.toJS() as K8s);
    const files = objects.find((o) => o?.kind === 'ConfigMap' && o.metadata.name === `${RELEASE}-billing-files`);
    assert.ok(files, 'a ConfigMap of billing files');
    assert.equal(files.data['catalogue.json'], readFileSync(catalogue, 'utf8'));
    const billing = objects.find((o) => o?.kind === 'Deployment' && o.metadata.name === `${RELEASE}-billing`);
    const pod = billing.spec.template.spec;
    assert.deepEqual(
      pod.containers[0].volumeMounts.find((m: K8s) => m.name === 'files'),
      { name: 'files', mountPath: '/etc/flatlay', readOnly: true },
    );
    assert.equal(pod.volumes.find((v: K8s) => v.name === 'files').configMap.name, `${RELEASE}-billing-files`);
    assert.ok(
      pod.containers[0].env.some(
        (e: K8s) => e.name === 'BILLING_CATALOGUE_FILE' && e.value === '/etc/flatlay/catalogue.json',
      ),
      'billing is told where its catalogue is',
    );
    // No other component gets a files volume by default.
    for (const o of objects.filter((d) => d?.kind === 'Deployment' && d !== billing))
      assert.ok(!o.spec.template.spec.volumes.some((v: K8s) => v.name === 'files'), o.metadata.name);
    // A changed file changes the Pod template, so an upgrade rolls billing.
    const other = join(tmpdir(), `catalogue-${process.pid}.json`);
    writeFileSync(other, `${readFileSync(catalogue, 'utf8')}\n`);
    const changed = parseAllDocuments(withCatalogue(other).out)
      .map((d) => d.toJS() as K8s)
      .find((o) => o?.kind === 'Deployment' && o.metadata.name === `${RELEASE}-billing`);
    assert.notEqual(
      changed.spec.template.metadata.annotations['checksum/files'],
      billing.spec.template.metadata.annotations['checksum/files'],
    );
  });

  it('declares exactly the registry topics, and every consumed topic exists', () => {
    const declared = parse(readFileSync(join(chartDir, 'values.yaml'), 'utf8'))
      .kafka.topics.items.map((t: K8s) => t.name)
      .sort();
    assert.deepEqual(declared, [...TOPICS].sort());
    for (const n of serviceNames)
      for (const t of registry[n].consumes?.topics ?? []) assert.ok(declared.includes(t), `${n} consumes ${t}`);
    assert.ok(declared.includes(generationWorkQueue.topic));
  });

  it('every component a shipped values file enables runs an entry point that exists in the source tree', () => {
    const components = parse(readFileSync(join(chartDir, 'values.yaml'), 'utf8')).components as Record<string, K8s>;
    assert.deepEqual(Object.keys(components).sort(), [...COMPONENTS].sort());
    for (const [name, c] of Object.entries(components)) {
      const [node, entry = ''] = c.command;
      assert.equal(node, 'node', `${name}: runs node`);
      const match = /^(.+)\/dist\/(.+)\.js$/.exec(entry);
      assert.ok(match, `${name}: command names a built file under <package>/dist/`);
      const source = join(root, match[1]!, 'src', `${match[2]}.ts`);
      if (existsSync(source)) continue;
      // A component whose code is not written yet ships disabled everywhere, never as a crash-looping pod.
      for (const vs of VALUE_SETS.filter((v) => !v.set)) {
        const deployed = ofKind(render(vs), 'Deployment').some((d) => componentOf(d) === name);
        assert.ok(
          !deployed,
          `${name} (${vs.name} values): ${relative(root, source)} does not exist, so the component must be disabled`,
        );
      }
    }
  });

  it('lists the grpcClients of each component exactly as the registry allows', () => {
    const components = parse(readFileSync(join(chartDir, 'values.yaml'), 'utf8')).components as Record<string, K8s>;
    for (const [name, c] of Object.entries(components)) {
      const clients: string[] = c.grpcClients ?? [];
      assert.deepEqual([...clients].sort(), [...calleesOfComponent(name)].sort(), `${name}: grpcClients`);
    }
  });

  describe('the data layer and generated Secrets (ADR 0303)', () => {
    const byName = (vs: string) => VALUE_SETS.find((v) => v.name === vs)!;
    const secretValue = (objs: K8s[], name: string, key: string) => {
      const secret = objs.find((o) => o.kind === 'Secret' && o.metadata.name === name);
      assert.ok(secret, `renders Secret ${name}`);
      assert.ok(secret.data?.[key], `${name} has ${key}`);
      return Buffer.from(secret.data[key], 'base64').toString();
    };
    /** Secrets only the platform engineer can bring: Stripe's keys and the first admin account. */
    const FROM_OUTSIDE = new Set(['flatlay-stripe', 'flatlay-identity-admin']);

    it('generates the signing keys and service secrets, never from values', () => {
      for (const vs of VALUE_SETS) {
        const objs = render(vs);
        const jwt = createPrivateKey(secretValue(objs, 'flatlay-identity-jwt', 'JWT_PRIVATE_KEY'));
        assert.equal(jwt.asymmetricKeyType, 'ec');
        assert.equal(jwt.asymmetricKeyDetails?.namedCurve, 'prime256v1');
        assert.ok(secretValue(objs, 'flatlay-image-urls', 'IMAGE_URL_SIGNING_KEY').length >= 32);
        // One Ed25519 key pair per component; public.pem (a certificate: Helm writes no bare public
        // key) holds the public key of private.pem, as the services read it.
        for (const comp of COMPONENTS) {
          const secret = `flatlay-service-key-${comp}`;
          const key = createPrivateKey(secretValue(objs, secret, 'private.pem'));
          assert.equal(key.asymmetricKeyType, 'ed25519', `${secret}: Ed25519`);
          const pub = createPublicKey(secretValue(objs, secret, 'public.pem'));
          assert.equal(
            pub.export({ type: 'spki', format: 'pem' }),
            createPublicKey(key).export({ type: 'spki', format: 'pem' }),
            `${secret}: public.pem is private.pem's public key`,
          );
        }
        const pems = COMPONENTS.map((comp) => secretValue(objs, `flatlay-service-key-${comp}`, 'private.pem'));
        assert.equal(new Set(pems).size, COMPONENTS.length, 'a key pair of its own for each component');
        assert.equal(
          Buffer.from(secretValue(objs, 'flatlay-analytics-settings', 'SETTINGS_ENCRYPTION_KEY'), 'base64').length,
          32,
        );
      }
      // Two renders make different keys: nothing is a constant of the chart.
      const again = template(byName('default'));
      assert.equal(again.status, 0);
      const againObjs = parseAllDocuments(again.out)
        .map((d) => d.toJS())
        .filter(Boolean);
      for (const [secret, key] of [
        ['flatlay-image-urls', 'IMAGE_URL_SIGNING_KEY'],
        ['flatlay-service-key-image-worker', 'private.pem'],
      ] as const)
        assert.notEqual(secretValue(render(byName('default')), secret, key), secretValue(againObjs, secret, key));
    });

    it("gives the settings key to analytics, which seals, and image-worker, which opens the operator's generative key", () => {
      for (const vs of VALUE_SETS) {
        const objs = render(vs);
        const refOf = (comp: string) =>
          ofKind(objs, 'Deployment')
            .find((d) => componentOf(d) === comp)
            ?.spec.template.spec.containers[0].env.find((e: K8s) => e.name === 'SETTINGS_ENCRYPTION_KEY')?.valueFrom
            ?.secretKeyRef;
        const sealing = { name: 'flatlay-analytics-settings', key: 'SETTINGS_ENCRYPTION_KEY' };
        for (const comp of ['analytics', 'image-worker'].filter((c) => vs.enabled.includes(c)))
          assert.deepEqual(refOf(comp), sealing, `${vs.name}: ${comp} reads the one settings key`);
        // The image service keeps the key sealed, as SettingsChanged carries it: it never holds the settings key.
        if (vs.enabled.includes('image')) assert.equal(refOf('image'), undefined, `${vs.name}: image`);
      }
    });

    for (const name of ['dev', 'prod-incluster']) {
      it(`${name}: one values file runs the data services in the cluster; only Stripe, the admin account (and production's S3 keys) come from outside`, () => {
        const objs = render(byName(name));
        const outside = name === 'dev' ? FROM_OUTSIDE : new Set([...FROM_OUTSIDE, 'flatlay-s3']);
        const made = new Set(objs.filter((o) => o.kind === 'Secret').map((o) => o.metadata.name));
        const workloads = objs.filter((o) => o.kind === 'Deployment' || o.kind === 'StatefulSet');
        for (const w of workloads)
          for (const c of containersOf(w))
            for (const e of c.env ?? []) {
              const ref = e.valueFrom?.secretKeyRef;
              if (ref && !ref.optional && !outside.has(ref.name))
                assert.ok(made.has(ref.name), `${w.metadata.name}: ${e.name} from ${ref.name}, which the chart makes`);
            }
        // PostgreSQL: a CloudNativePG Cluster, a role and database per service, the services' URLs from the roles.
        const [cluster] = objs.filter((o) => o.kind === 'Cluster');
        assert.equal(cluster.apiVersion, 'postgresql.cnpg.io/v1');
        assert.equal(cluster.spec.instances, name === 'dev' ? 1 : 3);
        assert.equal(cluster.spec.affinity.topologyKey, 'topology.kubernetes.io/zone');
        const services = serviceNames.filter((n) => byName(name).enabled.includes(n));
        assert.deepEqual(cluster.spec.managed.roles.map((r: K8s) => r.name).sort(), [...services].sort());
        const databases = objs.filter((o) => o.kind === 'Database');
        for (const svc of services) {
          const db = databases.find((d) => d.spec.name === svc);
          assert.equal(db?.spec.owner, svc, `${svc}: its own database, owned by its own role`);
          assert.equal(db.spec.cluster.name, cluster.metadata.name);
          const role = cluster.spec.managed.roles.find((r: K8s) => r.name === svc);
          const password = secretValue(objs, role.passwordSecret.name, 'password');
          assert.equal(secretValue(objs, role.passwordSecret.name, 'username'), svc);
          const deployment = ofKind(objs, 'Deployment').find((d) => componentOf(d) === svc);
          const ref = deployment.spec.template.spec.containers[0].env.find((e: K8s) => e.name === 'DATABASE_URL')
            .valueFrom.secretKeyRef;
          const url = new URL(secretValue(objs, ref.name, ref.key));
          assert.equal(url.hostname, `${cluster.metadata.name}-rw`);
          assert.equal(url.pathname, `/${svc}`);
          assert.equal(url.username, svc);
          assert.equal(decodeURIComponent(url.password), password);
        }
        // Redis: a StatefulSet with a password, a claim per replica, a PDB, and the gateway's REDIS_URL.
        const redis = objs.find((o) => o.kind === 'StatefulSet');
        assert.equal(redis.spec.volumeClaimTemplates[0].spec.accessModes[0], 'ReadWriteOnce');
        assert.ok(redis.spec.template.spec.containers[0].args.includes('--requirepass'));
        const pdb = objs.find((o) => o.kind === 'PodDisruptionBudget' && isDataService(o));
        assert.ok(matches(pdb.spec.selector.matchLabels, redis.spec.template.metadata.labels));
        const redisUrl = new URL(secretValue(objs, 'flatlay-redis', 'REDIS_URL'));
        assert.equal(redisUrl.hostname, redis.spec.serviceName);
        assert.equal(decodeURIComponent(redisUrl.password), secretValue(objs, 'flatlay-redis', 'REDIS_PASSWORD'));
        // The components reach them through their NetworkPolicies.
        const gatewayPolicy = objs.find((o) => o.kind === 'NetworkPolicy' && o.metadata.name === `${RELEASE}-gateway`);
        assert.ok(
          gatewayPolicy.spec.egress.some((r: K8s) =>
            r.to.some((p: K8s) => matches(p.podSelector?.matchLabels ?? {}, redis.spec.template.metadata.labels)),
          ),
          'the gateway may reach Redis',
        );
        const minio = objs.find((o) => o.kind === 'Deployment' && isDataService(o));
        if (name === 'dev') {
          assert.ok(minio, 'dev runs MinIO');
          assert.equal(
            new URL(objs.find((o) => o.kind === 'ConfigMap').data.S3_ENDPOINT).hostname.split('.')[0],
            objs.find((o) => o.kind === 'Service' && matches(o.spec.selector, minio.spec.template.metadata.labels))
              .metadata.name,
          );
          secretValue(objs, 'flatlay-s3', 'S3_SECRET_ACCESS_KEY');
        } else assert.equal(minio, undefined, 'production keeps object storage outside (S3)');
        // Data services meet the same restricted security context as the components.
        for (const w of workloads.filter(isDataService)) {
          assert.equal(w.spec.template.spec.securityContext.runAsNonRoot, true, w.metadata.name);
          for (const c of containersOf(w)) {
            assert.equal(c.securityContext.allowPrivilegeEscalation, false);
            assert.deepEqual(c.securityContext.capabilities.drop, ['ALL']);
          }
        }
      });
    }

    it('bring-your-own (default and prod values): no data service, no database or Redis Secret made', () => {
      for (const name of ['default', 'prod']) {
        const objs = render(byName(name));
        assert.deepEqual(
          objs.filter((o) => ['Cluster', 'Database', 'StatefulSet'].includes(o.kind) || isDataService(o)),
          [],
          name,
        );
        const made = new Set(objs.filter((o) => o.kind === 'Secret').map((o) => o.metadata.name));
        for (const s of ['flatlay-redis', 'flatlay-s3', 'flatlay-identity-db'])
          assert.ok(!made.has(s), `${name}: ${s} is yours`);
      }
    });
  });

  describe('values.schema.json refuses unsafe values', () => {
    const refuses = (set: string[], why: RegExp) => {
      const { status, out } = template({ files: ['values-prod.yaml'], set });
      assert.notEqual(status, 0, `helm template accepted ${set.join(' ')}`);
      assert.match(out, why);
    };
    it('a literal secret under env', () =>
      refuses(['components.billing.env.STRIPE_SECRET_KEY=sk_live_123'], /meet the specifications of the schema/));
    it('a literal DATABASE_URL under env or config', () => {
      refuses(['components.ledger.env.DATABASE_URL=postgres://u:p@db/ledger'], /meet the specifications of the schema/);
      refuses(['config.DATABASE_URL=postgres://u:p@db/ledger'], /meet the specifications of the schema/);
    });
    it('the :latest tag', () => refuses(['image.tag=latest'], /meet the specifications of the schema/));
    it('a literal service secret or signing key under env', () => {
      refuses(['components.gateway.env.SERVICE_AUTH_SECRET=abc'], /meet the specifications of the schema/);
      refuses(['components.gateway.env.SERVICE_PRIVATE_KEY=abc'], /meet the specifications of the schema/);
      refuses(['components.identity.env.JWT_PRIVATE_KEY=abc'], /meet the specifications of the schema/);
    });
    it('production billing with neither the Stripe secret key reference nor the explicit local provider', () => {
      refuses(['components.billing.secretEnv.STRIPE_SECRET_KEY=null'], /meet the specifications of the schema/);
      refuses(
        ['components.billing.secretEnv.STRIPE_SECRET_KEY=null', 'components.billing.env.PAYMENTS_PROVIDER=stripe'],
        /meet the specifications of the schema/,
      );
      // The explicit choice is accepted and reaches billing's container.
      const { status, out } = template({
        files: ['values-prod.yaml'],
        set: ['components.billing.secretEnv.STRIPE_SECRET_KEY=null', 'components.billing.env.PAYMENTS_PROVIDER=local'],
      });
      assert.equal(status, 0, out);
      const billing = parseAllDocuments(out)
        .map((d) => d.toJS())
        .find((o) => o?.kind === 'Deployment' && /billing$/.test(o.metadata.name));
      const env = billing.spec.template.spec.containers[0].env;
      assert.deepEqual(
        env.find((e: { name: string }) => e.name === 'PAYMENTS_PROVIDER'),
        { name: 'PAYMENTS_PROVIDER', value: 'local' },
      );
      assert.equal(
        env.find((e: { name: string }) => e.name === 'STRIPE_SECRET_KEY'),
        undefined,
      );
    });
    it('a root or privilege-escalating security context', () => {
      refuses(['podSecurityContext.runAsNonRoot=false'], /meet the specifications of the schema/);
      refuses(['containerSecurityContext.allowPrivilegeEscalation=true'], /meet the specifications of the schema/);
    });
  });
});

describe('k8s/ and skaffold.yaml agree with the chart', () => {
  const k8sDir = join(root, 'k8s');
  const files = (function walk(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.yaml') ? [join(dir, e.name)] : [],
    );
  })(k8sDir);
  const manifests = files
    .flatMap((f) =>
      parseAllDocuments(readFileSync(f, 'utf8')).map((d) => {
        assert.equal(d.errors.length, 0, `${relative(root, f)}: ${d.errors.join('; ')}`);
        return d.toJS();
      }),
    )
    .filter(Boolean);
  // The cluster-level manifests are written for the worker the chart will run once it is enabled.
  const prod = VALUE_SETS.find((v) => v.name === 'prod')!;

  it('every k8s/ manifest is a named object, valid against its OpenAPI schema (Kubernetes, Strimzi, KEDA)', async () => {
    assert.ok(manifests.length >= 5);
    for (const m of manifests) {
      assert.ok(m.kind && m.metadata?.name, `${m.kind}: kind and metadata.name`);
      await validateSchema(m);
    }
  });

  it('the Strimzi Kafka cluster (v1: KRaft, node pools) authenticates and authorises clients, creates no topics, and the chart points at it', () => {
    const kafka = manifests.find((m) => m.kind === 'Kafka');
    for (const m of manifests.filter((x) => String(x.apiVersion).startsWith('kafka.strimzi.io/')))
      assert.equal(m.apiVersion, 'kafka.strimzi.io/v1', `${m.kind} ${m.metadata.name}: Strimzi 1.x serves v1 only`);
    assert.equal(kafka.spec.kafka.config['auto.create.topics.enable'], false);
    // Every listener asks for SCRAM credentials and ACLs decide: the chart's KafkaUsers.
    for (const l of kafka.spec.kafka.listeners)
      assert.equal(l.authentication?.type, 'scram-sha-512', `listener ${l.name}`);
    assert.equal(kafka.spec.kafka.authorization?.type, 'simple');
    assert.equal(kafka.spec.entityOperator.userOperator.watchedNamespace, NAMESPACE);
    assert.equal(kafka.spec.zookeeper, undefined);
    const pools = manifests.filter((m) => m.kind === 'KafkaNodePool');
    assert.ok(
      pools.some((p) => p.spec.roles.includes('controller')) && pools.some((p) => p.spec.roles.includes('broker')),
    );
    for (const p of pools) assert.equal(p.metadata.labels['strimzi.io/cluster'], kafka.metadata.name);
    const objs = render(prod);
    for (const t of ofKind(objs, 'KafkaTopic'))
      assert.equal(t.metadata.labels['strimzi.io/cluster'], kafka.metadata.name);
    assert.equal(kafka.spec.entityOperator.topicOperator.watchedNamespace, NAMESPACE);
    const plain = kafka.spec.kafka.listeners.find((l: K8s) => !l.tls);
    assert.equal(
      ofKind(objs, 'ConfigMap')[0].data.KAFKA_BROKERS,
      `${kafka.metadata.name}-kafka-bootstrap.${kafka.metadata.namespace}.svc:${plain.port}`,
    );
  });

  it("the chart's KEDA ScaledObject (production) scales the image worker on the work queue, within its partitions, as the worker's Kafka user", () => {
    const objs = render(prod);
    assert.equal(manifests.filter((m) => m.kind === 'ScaledObject').length, 0, 'lag-based scaling lives in the chart');
    const [so] = ofKind(objs, 'ScaledObject');
    assert.ok(so, 'production values render the ScaledObject');
    for (const other of VALUE_SETS.filter((v) => !v.prod))
      assert.equal(ofKind(render(other), 'ScaledObject').length, 0, `${other.name}: KEDA off`);
    const worker = ofKind(objs, 'Deployment').find((d) => componentOf(d) === 'image-worker');
    assert.equal(so.spec.scaleTargetRef.name, worker.metadata.name);
    const trigger = so.spec.triggers.find((t: K8s) => t.type === 'kafka');
    assert.equal(trigger.metadata.topic, WORK_QUEUE);
    const group = worker.spec.template.spec.containers[0].env.find(
      (e: K8s) => e.name === 'GENERATION_CONSUMER_GROUP',
    )?.value;
    assert.equal(trigger.metadata.consumerGroup, group);
    assert.equal(group, generationWorkQueue.group, 'the consumer group of the service registry');
    const queue = ofKind(objs, 'KafkaTopic').find((t) => t.spec.topicName === WORK_QUEUE);
    assert.ok(so.spec.maxReplicaCount <= queue.spec.partitions, 'no more workers than partitions');
    // KEDA reads the lag as the worker's own Kafka user.
    assert.equal(trigger.metadata.sasl, 'scram_sha512');
    const [auth] = ofKind(objs, 'TriggerAuthentication');
    assert.equal(trigger.authenticationRef.name, auth.metadata.name);
    assert.deepEqual(auth.spec.secretTargetRef.map((r: K8s) => [r.parameter, r.name, r.key]).sort(), [
      ['password', `${RELEASE}-kafka-image-worker`, 'password'],
      ['username', `${RELEASE}-kafka-image-worker`, 'username'],
    ]);
    const hpa = ofKind(objs, 'HorizontalPodAutoscaler').find(
      (h) => h.spec.scaleTargetRef.name === worker.metadata.name,
    );
    assert.equal(hpa, undefined, "KEDA owns the worker's HPA");
  });

  it('the nvidia RuntimeClass schedules onto the pool the worker selects', () => {
    const rc = manifests.find((m) => m.kind === 'RuntimeClass');
    const worker = ofKind(render(prod), 'Deployment').find((d) => componentOf(d) === 'image-worker');
    assert.equal(rc.metadata.name, worker.spec.template.spec.runtimeClassName);
    assert.deepEqual(rc.scheduling.nodeSelector, worker.spec.template.spec.nodeSelector);
  });

  it('namespaces exist for the release and for Kafka', () => {
    const names = manifests.filter((m) => m.kind === 'Namespace').map((m) => m.metadata.name);
    for (const n of [NAMESPACE, 'kafka', 'flatlay-dev']) assert.ok(names.includes(n), n);
  });

  it('skaffold builds the one image and deploys the chart with dev and prod values', () => {
    const sk = parse(readFileSync(join(root, 'skaffold.yaml'), 'utf8'));
    assert.match(sk.apiVersion, /^skaffold\/v4/);
    assert.equal(sk.build.artifacts.length, 1);
    assert.equal(sk.build.artifacts[0].docker.dockerfile, 'Dockerfile');
    assert.ok(existsSync(join(root, 'Dockerfile')));
    const release = sk.deploy.helm.releases[0];
    assert.equal(resolve(root, release.chartPath), chartDir);
    const image = sk.build.artifacts[0].image;
    assert.equal(release.setValueTemplates['image.repository'], `{{.IMAGE_REPO_${image}}}`);
    for (const profile of ['dev', 'prod']) {
      const p = sk.profiles.find((x: K8s) => x.name === profile);
      assert.ok(p, `profile ${profile}`);
      const files = p.patches.filter((x: K8s) => x.path.includes('valuesFiles')).map((x: K8s) => x.value);
      assert.deepEqual(files, [`charts/flatlay/values-${profile}.yaml`]);
      assert.ok(existsSync(join(root, String(files[0]))));
    }
  });
});
