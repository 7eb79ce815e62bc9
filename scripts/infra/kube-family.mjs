// Every Go tool the tests run, made by one `go build` in one module (ADR 0307, ADR 0308):
//   kube-apiserver, kube-controller-manager, kube-scheduler, kubectl   k8s.io/kubernetes
//   etcd        go.etcd.io/etcd/server/v3, the version Kubernetes' own module graph selects
//   kwok        sigs.k8s.io/kwok (and its stages file: fast node and pod lifecycles)
//   controller-gen  sigs.k8s.io/controller-tools (the KEDA and Prometheus Operator CRDs)
//   helm        helm.sh/helm/v3 (the chart tests, the k8s and container tiers)
//   prometheus, promtool  github.com/prometheus/prometheus (the monitoring tests)
//   versitygw   github.com/versity/versitygw (the S3 blob store's contract: a real S3 gateway over a folder, ADR 0309)
//   k6          go.k6.io/k6 (the load smoke test, npm run bench:api)
//   server      github.com/Shopify/toxiproxy/v2 (the fault tier's network faults; linked as toxiproxy-server)
//   stripe-mock github.com/stripe/stripe-mock (Stripe's API)
//   kubeconform github.com/yannh/kubeconform (the chart's offline schema check)
// Built apart, each tool compiled its own copy of client-go, apimachinery, the API types, gRPC,
// OpenTelemetry, the Prometheus client and the compressors at its own versions: 257 MB of Go source
// for these sixteen binaries, against 188 MB in one module, each package compiled once at one
// version (160 MB since versitygw replaced MinIO, ADR 0309). On a new machine's two cores that
// compile is most of the cold CI's install step.
// Cached in KUBE_CACHE, keyed by the versions and flags below. Other Kubernetes versions
// (`npm run k8s:matrix`) build their four binaries alone (kube-tools.mjs).

import fs from 'node:fs';
import path from 'node:path';
import { cached } from './cached.mjs';
import { GO_BUILD_FLAGS, GO_COMPILE_FLAGS, GO_STRIP, goIn, warmGoStd } from './go-env.mjs';
import { KUBE_CACHE, VERSIONS } from './layout.mjs';
import { log } from './log.mjs';
import { which } from './process.mjs';

export const KUBE_BINARIES = /** @type {const} */ ([
  'kube-apiserver',
  'kube-controller-manager',
  'kube-scheduler',
  'kubectl',
]);

/** Each tool besides Kubernetes' own: its binary, its main package, and the module pinned for it. */
const TOOLS = Object.freeze([
  // A three-line main around etcdmain, written into the module (etcd's own main is its module's root).
  { bin: 'etcd', pkg: './cmd/etcd', module: 'go.etcd.io/etcd/server/v3', version: VERSIONS.etcd },
  { bin: 'kwok', pkg: 'sigs.k8s.io/kwok/cmd/kwok', module: 'sigs.k8s.io/kwok', version: VERSIONS.kwok },
  {
    bin: 'controller-gen',
    pkg: 'sigs.k8s.io/controller-tools/cmd/controller-gen',
    module: 'sigs.k8s.io/controller-tools',
    version: VERSIONS.controllerTools,
  },
  { bin: 'helm', pkg: 'helm.sh/helm/v3/cmd/helm', module: 'helm.sh/helm/v3', version: VERSIONS.helm },
  ...['prometheus', 'promtool'].map((bin) => ({
    bin,
    pkg: `github.com/prometheus/prometheus/cmd/${bin}`,
    module: 'github.com/prometheus/prometheus',
    version: VERSIONS.prometheus,
  })),
  {
    bin: 'versitygw',
    pkg: 'github.com/versity/versitygw/cmd/versitygw',
    module: 'github.com/versity/versitygw',
    version: VERSIONS.versitygw,
  },
  { bin: 'k6', pkg: 'go.k6.io/k6', module: 'go.k6.io/k6', version: VERSIONS.k6 },
  {
    bin: 'server',
    pkg: 'github.com/Shopify/toxiproxy/v2/cmd/server',
    module: 'github.com/Shopify/toxiproxy/v2',
    version: VERSIONS.toxiproxy,
  },
  {
    bin: 'stripe-mock',
    pkg: 'github.com/stripe/stripe-mock',
    module: 'github.com/stripe/stripe-mock',
    version: VERSIONS.stripeMock,
  },
  {
    bin: 'kubeconform',
    pkg: 'github.com/yannh/kubeconform/cmd/kubeconform',
    module: 'github.com/yannh/kubeconform',
    version: VERSIONS.kubeconform,
  },
]);

/**
 * Prometheus without its service discoveries (cloud providers, Kubernetes, Consul, ...): the tests
 * scrape fixed targets, and the discoveries were 59 % of its Go source. A tag of Prometheus' own
 * plugins; no other module here reads it.
 */
const TAGS = 'remove_all_sd';

/** The kwok stages the k8s tier plays: nodes Ready at once with a lease heartbeat; pods Running, done, deleted. */
const KWOK_STAGES = [
  'node/fast/node-initialize.yaml',
  'node/heartbeat-with-lease/node-heartbeat-with-lease.yaml',
  'pod/fast/pod-ready.yaml',
  'pod/fast/pod-complete.yaml',
  'pod/fast/pod-delete.yaml',
];

/** @param {string} version @returns {{ major: string, minor: string, patch: string }} */
export function kubeVersionParts(version) {
  const [, major, minor, patch] = version.match(/^v(\d+)\.(\d+)\.(\d+)$/) ?? [];
  if (!major || !minor || !patch) throw new Error(`not a Kubernetes version: ${version}`);
  return { major, minor, patch };
}

/**
 * The go.mod of a module that builds k8s.io/kubernetes at `version`: its staging modules (which its
 * own go.mod points at ./staging, refused outside its repository) replaced by their published twins,
 * k8s.io/<name> v0.<minor>.<patch>.
 * @param {string} mod the module's folder @param {string} version @param {ReadonlyArray<{ module: string, version: string }>} [also]
 */
export async function writeKubeModule(mod, version, also = []) {
  const { minor, patch } = kubeVersionParts(version);
  fs.mkdirSync(mod, { recursive: true });
  const requires = [{ module: 'k8s.io/kubernetes', version }, ...also];
  const unique = [...new Map(requires.map((r) => [r.module, r])).values()];
  fs.writeFileSync(
    path.join(mod, 'go.mod'),
    `module flatlay.local/kubebuild\n\ngo 1.25\n\nrequire (\n${unique.map((r) => `\t${r.module} ${r.version}\n`).join('')})\n`,
  );
  await goIn(mod, ['mod', 'download', `k8s.io/kubernetes@${version}`]);
  const kdir = (await goIn(mod, ['list', '-m', '-f', '{{.Dir}}', `k8s.io/kubernetes@${version}`])).trim();
  const staging = [
    ...fs.readFileSync(path.join(kdir, 'go.mod'), 'utf8').matchAll(/^\s*(k8s\.io\/\S+)\s+=>\s+\.\/staging\//gm),
  ].map((m) => m[1]);
  if (staging.length === 0) throw new Error(`no staging replaces found in k8s.io/kubernetes@${version}`);
  fs.appendFileSync(
    path.join(mod, 'go.mod'),
    `\nreplace (\n${staging.map((n) => `\t${n} => ${n} v0.${minor}.${patch}\n`).join('')})\n`,
  );
}

/** Kubernetes' version stamps: without them the server says v0.0.0 and helm refuses a chart's kubeVersion. */
/** @param {string} version */
export function kubeLdflags(version) {
  const { major, minor } = kubeVersionParts(version);
  return [
    `-X k8s.io/component-base/version.gitVersion=${version}`,
    `-X k8s.io/component-base/version.gitMajor=${major}`,
    `-X k8s.io/component-base/version.gitMinor=${minor}`,
    '-X k8s.io/component-base/version.gitTreeState=clean',
    GO_STRIP,
  ].join(' ');
}

/** `go build` of main packages into `out/`, with the shared flags and Kubernetes' version stamps. */
/** @param {string} mod @param {string} out @param {string} version @param {string[]} pkgs @param {string[]} [extra] */
export async function buildWithKube(mod, out, version, pkgs, extra = []) {
  await warmGoStd();
  await goIn(mod, [
    'build',
    // FLATLAY_GO_JOBS: more parallel compiles than cores, on a machine shared with other work.
    ...(process.env.FLATLAY_GO_JOBS ? ['-p', process.env.FLATLAY_GO_JOBS] : []),
    ...GO_COMPILE_FLAGS,
    ...extra,
    '-ldflags',
    kubeLdflags(version),
    '-o',
    `${out}/`,
    ...pkgs,
  ]);
}

export const kubeFamilyDir = () => path.join(KUBE_CACHE, `kube-family-${VERSIONS.kubernetes}`);

/** @type {Promise<string> | undefined} */
let made;

/**
 * Builds (once per machine) or finds the tools above; resolves to their folder. Once per process:
 * install() (helm, Prometheus) and the control plane ask for it at the same time.
 * @returns {Promise<string>}
 */
export function installKubeFamily() {
  made ??= makeKubeFamily();
  return made;
}

async function makeKubeFamily() {
  const version = VERSIONS.kubernetes;
  const recipe = `kubernetes ${version}; ${TOOLS.map((t) => `${t.bin} ${t.module}@${t.version}`).join('; ')}; tags ${TAGS}; ${GO_BUILD_FLAGS.join(' ')}; kwok stages ${KWOK_STAGES.join(' ')}\n`;
  return cached(
    kubeFamilyDir(),
    recipe,
    `the Go tools: Kubernetes ${version}, etcd, kwok, controller-gen, helm, Prometheus, versitygw, k6, Toxiproxy, stripe-mock, kubeconform (one Go build)`,
    async (out) => {
      const t = Date.now();
      if (!which('go'))
        throw new Error('go is required to build the test tools (the control plane, the S3 server, k6, ...)');
      // The standard library compiles while the modules download (a cold cache waits on the network
      // for minutes there); the build below waits for both.
      void warmGoStd();
      const mod = path.join(out, 'src');
      await writeKubeModule(mod, version, TOOLS);
      fs.mkdirSync(path.join(mod, 'cmd', 'etcd'), { recursive: true });
      fs.writeFileSync(
        path.join(mod, 'cmd', 'etcd', 'main.go'),
        'package main\n\nimport (\n\t"os"\n\n\t"go.etcd.io/etcd/server/v3/etcdmain"\n)\n\nfunc main() { etcdmain.Main(os.Args) }\n',
      );
      const mains = [...KUBE_BINARIES.map((b) => `k8s.io/kubernetes/cmd/${b}`), ...TOOLS.map((t) => t.pkg)];
      fs.writeFileSync(
        path.join(mod, 'tools.go'),
        `//go:build tools\n\npackage tools\n\nimport (\n${mains
          .filter((p) => !p.startsWith('./'))
          .map((p) => `\t_ "${p}"\n`)
          .join('')})\n`,
      );
      // `-e`: tidy reads every build tag, so it walks Prometheus' Consul discovery, which
      // `remove_all_sd` leaves out of the build and whose imports the shared graph cannot all
      // satisfy (hashicorp/serf wants a go-metrics package no selected version has). What the build
      // compiles is checked by the build itself.
      await goIn(mod, ['mod', 'tidy', '-e']);
      // One version of each module serves every tool; the pinned ones must be what the build uses
      // (a tool's requirement may raise another's), or the recipe above would name the wrong version.
      for (const { module, version: wanted } of [{ module: 'k8s.io/kubernetes', version }, ...TOOLS]) {
        const chosen = (await goIn(mod, ['list', '-m', '-f', '{{.Version}}', module])).trim();
        if (chosen !== wanted)
          throw new Error(`${module}: the shared module selected ${chosen}, not the pinned ${wanted}: pin ${chosen}`);
      }
      // Where the network's part ends and the compiler's begins: the cold run's two halves.
      log(`the Go tools: modules resolved in ${((Date.now() - t) / 1000).toFixed(1)} s; compiling`);
      await buildWithKube(mod, out, version, mains, [`-tags=${TAGS}`]);
      const kwok = JSON.parse(await goIn(mod, ['mod', 'download', '-json', `sigs.k8s.io/kwok@${VERSIONS.kwok}`])).Dir;
      const stages = KWOK_STAGES.map((s) => fs.readFileSync(path.join(kwok, 'kustomize', 'stage', s), 'utf8').trim());
      fs.writeFileSync(
        path.join(out, 'stages.yaml'),
        `${stages.map((s) => (s.startsWith('---') ? s : `---\n${s}`)).join('\n')}\n`,
      );
      fs.rmSync(mod, { recursive: true, force: true });
    },
  );
}
