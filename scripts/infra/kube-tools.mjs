// The parts of a real Kubernetes control plane with simulated nodes (ADR 0302), built from the
// Go module proxy and Maven Central into KUBE_CACHE (outside the clone, keyed by version):
//   kubernetes-<v>/   kube-apiserver, kube-controller-manager, kube-scheduler, kubectl
//   etcd-<v>/         etcd
//   kwok-<v>/         kwok and its stages file (fast node and pod lifecycles)
//   strimzi-crds-<v>/ the Strimzi CRDs, made by Strimzi's own CRD generator from io.strimzi:api
//   keda-crds-<v>/    the KEDA CRDs, made by controller-gen over KEDA's API package
//   prometheus-operator-crds-<v>/ the Prometheus Operator's PodMonitor, ServiceMonitor and
//                     PrometheusRule CRDs, made by controller-gen over its monitoring API module
//   cnpg-crds-<v>/    CloudNativePG's Cluster and Database CRDs, made from the declarations and
//                     validators of the npm package @kubernetes-models/cloudnative-pg (ADR 0306)
// Each folder is complete when its `.complete` marker holds the recipe it was made by; a folder
// without it (an interrupted build) is rebuilt. Nothing here is copied into the repository.

import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { installJava21 } from './apt.mjs';
import { KUBE_CACHE, ROOT, VERSIONS } from './layout.mjs';
import { log } from './log.mjs';
import { exists, run, which } from './process.mjs';
import { goCompile, goEnv, warmGoStd } from './go-env.mjs';

/** Runs `make(dir)` into a fresh `<dir>.tmp` and renames it into place, unless `dir` is complete. */
/** @param {string} dir @param {string} recipe @param {string} what @param {(out: string) => Promise<unknown>} make */
async function cached(dir, recipe, what, make) {
  const marker = path.join(dir, '.complete');
  if (exists(marker) && fs.readFileSync(marker, 'utf8') === recipe) {
    log(`${what}: cached in ${dir}`);
    return dir;
  }
  const tmp = `${dir}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  log(`${what}: building (once per machine)`);
  const t = Date.now();
  try {
    await make(tmp);
    fs.writeFileSync(path.join(tmp, '.complete'), recipe);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(tmp, dir);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  log(`${what}: ready in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  return dir;
}

/** @param {string} bin @param {string} why */
function requireTool(bin, why) {
  if (!which(bin)) throw new Error(`${bin} is required to ${why}`);
}

/** @param {string[]} args @param {string} cwd */
const goModDir = async (args, cwd) => (await run('go', args, { cwd, env: goEnv() })).trim();

// ---------------------------------------------------------------------------------------------
// Kubernetes: k8s.io/kubernetes points its staging modules at ./staging, which `go install`
// refuses, so a throwaway module requires it and replaces each staging module by its published
// twin (k8s.io/<name> v0.<minor>.<patch>). The version is stamped in, or the server says v0.0.0
// and helm refuses any chart with a kubeVersion.
// ---------------------------------------------------------------------------------------------

export const KUBE_BINARIES = /** @type {const} */ ([
  'kube-apiserver',
  'kube-controller-manager',
  'kube-scheduler',
  'kubectl',
]);

/** @param {string} [version] */
export function kubernetesDir(version = VERSIONS.kubernetes) {
  return path.join(KUBE_CACHE, `kubernetes-${version}`);
}

/** @param {string} [version] */
export async function installKubernetes(version = VERSIONS.kubernetes) {
  const [, major, minor, patch] = version.match(/^v(\d+)\.(\d+)\.(\d+)$/) ?? [];
  if (!major) throw new Error(`not a Kubernetes version: ${version}`);
  const stagingVersion = `v0.${minor}.${patch}`;
  const recipe = `kubernetes ${version}; staging ${stagingVersion}; ${KUBE_BINARIES.join(' ')}\n`;
  return cached(kubernetesDir(version), recipe, `kubernetes ${version}`, async (/** @type {string} */ out) => {
    requireTool('go', 'build the Kubernetes control plane');
    const mod = path.join(out, 'src');
    fs.mkdirSync(mod, { recursive: true });
    fs.writeFileSync(
      path.join(mod, 'go.mod'),
      `module flatlay.local/kubebuild\n\ngo 1.25\n\nrequire k8s.io/kubernetes ${version}\n`,
    );
    await run('go', ['mod', 'download', `k8s.io/kubernetes@${version}`], { cwd: mod, env: goEnv() });
    const kdir = await goModDir(['list', '-m', '-f', '{{.Dir}}', `k8s.io/kubernetes@${version}`], mod);
    const staging = [
      ...fs.readFileSync(path.join(kdir, 'go.mod'), 'utf8').matchAll(/^\s*(k8s\.io\/\S+)\s+=>\s+\.\/staging\//gm),
    ].map((m) => m[1]);
    if (staging.length === 0) throw new Error(`no staging replaces found in k8s.io/kubernetes@${version}`);
    fs.appendFileSync(
      path.join(mod, 'go.mod'),
      `\nreplace (\n${staging.map((n) => `\t${n} => ${n} ${stagingVersion}\n`).join('')})\n`,
    );
    fs.writeFileSync(
      path.join(mod, 'tools.go'),
      `//go:build tools\n\npackage tools\n\nimport (\n${KUBE_BINARIES.map((b) => `\t_ "k8s.io/kubernetes/cmd/${b}"\n`).join('')})\n`,
    );
    await run('go', ['mod', 'tidy'], { cwd: mod, env: goEnv() });
    const ldflags = [
      `-X k8s.io/component-base/version.gitVersion=${version}`,
      `-X k8s.io/component-base/version.gitMajor=${major}`,
      `-X k8s.io/component-base/version.gitMinor=${minor}`,
      '-X k8s.io/component-base/version.gitTreeState=clean',
      '-s -w',
    ].join(' ');
    await warmGoStd();
    await run(
      'go',
      [
        'build',
        // FLATLAY_GO_JOBS: more parallel compiles than cores, on a machine shared with other work
        // (default: go's own, one per core).
        ...(process.env.FLATLAY_GO_JOBS ? ['-p', process.env.FLATLAY_GO_JOBS] : []),
        '-trimpath',
        '-ldflags',
        ldflags,
        '-o',
        `${out}/`,
        ...KUBE_BINARIES.map((b) => `k8s.io/kubernetes/cmd/${b}`),
      ],
      { cwd: mod, env: goEnv() },
    );
    fs.rmSync(mod, { recursive: true, force: true });
  });
}

// ---------------------------------------------------------------------------------------------
// etcd: the server module's etcdmain behind a three-line main.
// ---------------------------------------------------------------------------------------------

/** @param {string} [version] */
export async function installEtcd(version = VERSIONS.etcd) {
  const dir = path.join(KUBE_CACHE, `etcd-${version}`);
  return cached(dir, `etcd ${version}\n`, `etcd ${version}`, async (/** @type {string} */ out) => {
    requireTool('go', 'build etcd');
    const mod = path.join(out, 'src');
    fs.mkdirSync(mod, { recursive: true });
    fs.writeFileSync(
      path.join(mod, 'go.mod'),
      `module flatlay.local/etcdbuild\n\ngo 1.23\n\nrequire go.etcd.io/etcd/server/v3 ${version}\n`,
    );
    fs.writeFileSync(
      path.join(mod, 'main.go'),
      'package main\n\nimport (\n\t"os"\n\n\t"go.etcd.io/etcd/server/v3/etcdmain"\n)\n\nfunc main() { etcdmain.Main(os.Args) }\n',
    );
    await run('go', ['mod', 'tidy'], { cwd: mod, env: goEnv() });
    await goCompile('build', ['-o', path.join(out, 'etcd'), '.'], { cwd: mod });
    fs.rmSync(mod, { recursive: true, force: true });
  });
}

// ---------------------------------------------------------------------------------------------
// kwok: the simulator of kubelets, and the stages it plays (nodes Ready at once with a lease
// heartbeat; scheduled pods Running, finished, deleted).
// ---------------------------------------------------------------------------------------------

const KWOK_STAGES = [
  'node/fast/node-initialize.yaml',
  'node/heartbeat-with-lease/node-heartbeat-with-lease.yaml',
  'pod/fast/pod-ready.yaml',
  'pod/fast/pod-complete.yaml',
  'pod/fast/pod-delete.yaml',
];

/** @param {string} [version] */
export async function installKwok(version = VERSIONS.kwok) {
  const dir = path.join(KUBE_CACHE, `kwok-${version}`);
  return cached(
    dir,
    `kwok ${version}; ${KWOK_STAGES.join(' ')}\n`,
    `kwok ${version}`,
    async (/** @type {string} */ out) => {
      requireTool('go', 'build kwok');
      await goCompile('install', [`sigs.k8s.io/kwok/cmd/kwok@${version}`], { cwd: out, env: { GOBIN: out } });
      const src = await goModDir(['mod', 'download', '-json', `sigs.k8s.io/kwok@${version}`], out).then(
        (j) => JSON.parse(j).Dir,
      );
      const stages = KWOK_STAGES.map((s) => fs.readFileSync(path.join(src, 'kustomize', 'stage', s), 'utf8').trim());
      fs.writeFileSync(
        path.join(out, 'stages.yaml'),
        `${stages.map((s) => (s.startsWith('---') ? s : `---\n${s}`)).join('\n')}\n`,
      );
    },
  );
}

// ---------------------------------------------------------------------------------------------
// Operator CRDs, made from the operators' own published packages at pinned versions.
// ---------------------------------------------------------------------------------------------

export const STRIMZI_KINDS = Object.freeze({
  Kafka: 'io.strimzi.api.kafka.model.kafka.Kafka',
  KafkaNodePool: 'io.strimzi.api.kafka.model.nodepool.KafkaNodePool',
  KafkaTopic: 'io.strimzi.api.kafka.model.topic.KafkaTopic',
  KafkaUser: 'io.strimzi.api.kafka.model.user.KafkaUser',
});

/** @param {string} [version] */
export async function makeStrimziCrds(version = VERSIONS.strimzi) {
  const dir = path.join(KUBE_CACHE, `strimzi-crds-${version}`);
  const recipe = `strimzi ${version}; ${Object.keys(STRIMZI_KINDS).join(' ')}; v1 only\n`;
  return cached(dir, recipe, `strimzi CRDs ${version}`, async (/** @type {string} */ out) => {
    requireTool('mvn', 'fetch the Strimzi CRD generator');
    // Strimzi's classes are compiled for Java 21 (the default Java 17 refuses them).
    const java = await installJava21();
    /** @param {string} a */
    const dep = (a) =>
      `<dependency><groupId>io.strimzi</groupId><artifactId>${a}</artifactId><version>${version}</version></dependency>`;
    const pom = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
<groupId>dev.flatlay.infra</groupId><artifactId>strimzi-crds</artifactId><version>1</version><packaging>pom</packaging>
<dependencies>${dep('api')}${dep('crd-generator')}</dependencies></project>
`;
    const lib = path.join(out, 'lib');
    fs.writeFileSync(path.join(out, 'pom.xml'), pom);
    await run(
      'mvn',
      [
        '-B',
        '-q',
        '-f',
        path.join(out, 'pom.xml'),
        `org.apache.maven.plugins:maven-dependency-plugin:${VERSIONS.dependencyPlugin}:copy-dependencies`,
        '-DincludeScope=runtime',
        `-DoutputDirectory=${lib}`,
      ],
      { cwd: out },
    );
    const files = Object.entries(STRIMZI_KINDS).map(([kind, cls]) => `${cls}=${path.join(out, `${kind}.yaml`)}`);
    await run(
      java,
      [
        '-cp',
        `${lib}/*`,
        'io.strimzi.crdgenerator.CrdGenerator',
        '--crd-api-version',
        'v1',
        '--api-versions',
        'v1',
        '--storage-version',
        'v1',
        '--yaml',
        ...files,
      ],
      { cwd: out },
    );
    fs.rmSync(lib, { recursive: true, force: true });
    fs.rmSync(path.join(out, 'pom.xml'));
  });
}

/** @param {string} [version] */
export async function makeKedaCrds(version = VERSIONS.keda) {
  const dir = path.join(KUBE_CACHE, `keda-crds-${version}`);
  const recipe = `keda ${version}; controller-gen ${VERSIONS.controllerTools}\n`;
  return cached(dir, recipe, `KEDA CRDs ${version}`, async (/** @type {string} */ out) => {
    requireTool('go', 'run controller-gen');
    const mod = path.join(out, 'src');
    fs.mkdirSync(mod, { recursive: true });
    fs.writeFileSync(
      path.join(mod, 'go.mod'),
      `module flatlay.local/kedacrds\n\ngo 1.25\n\nrequire (\n\tgithub.com/kedacore/keda/v2 ${version}\n\tsigs.k8s.io/controller-tools ${VERSIONS.controllerTools}\n)\n`,
    );
    fs.writeFileSync(
      path.join(mod, 'tools.go'),
      '//go:build tools\n\npackage tools\n\nimport (\n\t_ "github.com/kedacore/keda/v2/apis/keda/v1alpha1"\n\t_ "sigs.k8s.io/controller-tools/cmd/controller-gen"\n)\n',
    );
    await run('go', ['mod', 'tidy'], { cwd: mod, env: goEnv() });
    await goCompile(
      'build',
      ['-o', path.join(mod, 'controller-gen'), 'sigs.k8s.io/controller-tools/cmd/controller-gen'],
      {
        cwd: mod,
      },
    );
    await run(
      path.join(mod, 'controller-gen'),
      ['crd', 'paths=github.com/kedacore/keda/v2/apis/keda/v1alpha1', `output:crd:dir=${out}`],
      { cwd: mod, env: goEnv() },
    );
    fs.rmSync(mod, { recursive: true, force: true });
  });
}

/** The Prometheus Operator's kinds the chart renders (monitoring.*); its other CRDs are left out. */
export const PROMETHEUS_OPERATOR_KINDS = Object.freeze(['podmonitors', 'servicemonitors', 'prometheusrules']);

/**
 * The Prometheus Operator's CRDs, made as the operator's own Makefile makes them: controller-gen over
 * the v1 API package of its separately published module (pkg/apis/monitoring). Only the kinds the
 * chart uses are kept (the Prometheus and Alertmanager CRDs are several MB each and unused here).
 */
/** @param {string} [version] */
export async function makePrometheusOperatorCrds(version = VERSIONS.prometheusOperator) {
  const dir = path.join(KUBE_CACHE, `prometheus-operator-crds-${version}`);
  const recipe = `prometheus-operator ${version}; controller-gen ${VERSIONS.controllerTools}; ${PROMETHEUS_OPERATOR_KINDS.join(' ')}\n`;
  return cached(dir, recipe, `Prometheus Operator CRDs ${version}`, async (/** @type {string} */ out) => {
    requireTool('go', 'run controller-gen');
    const api = 'github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring';
    const mod = path.join(out, 'src');
    fs.mkdirSync(mod, { recursive: true });
    fs.writeFileSync(
      path.join(mod, 'go.mod'),
      `module flatlay.local/promcrds\n\ngo 1.25\n\nrequire (\n\t${api} ${version}\n\tsigs.k8s.io/controller-tools ${VERSIONS.controllerTools}\n)\n`,
    );
    fs.writeFileSync(
      path.join(mod, 'tools.go'),
      `//go:build tools\n\npackage tools\n\nimport (\n\t_ "${api}/v1"\n\t_ "sigs.k8s.io/controller-tools/cmd/controller-gen"\n)\n`,
    );
    await run('go', ['mod', 'tidy'], { cwd: mod, env: goEnv() });
    await goCompile(
      'build',
      ['-o', path.join(mod, 'controller-gen'), 'sigs.k8s.io/controller-tools/cmd/controller-gen'],
      {
        cwd: mod,
      },
    );
    const all = path.join(mod, 'crds');
    await run(path.join(mod, 'controller-gen'), ['crd:crdVersions=v1', `paths=${api}/v1`, `output:crd:dir=${all}`], {
      cwd: mod,
      env: goEnv(),
    });
    for (const kind of PROMETHEUS_OPERATOR_KINDS) {
      const file = `monitoring.coreos.com_${kind}.yaml`;
      if (!exists(path.join(all, file))) throw new Error(`controller-gen made no ${file} from ${api}@${version}`);
      fs.copyFileSync(path.join(all, file), path.join(out, file));
    }
    fs.rmSync(mod, { recursive: true, force: true });
  });
}

/** CloudNativePG's kinds the chart renders (postgresql.cnpg.io/v1), with their plurals. */
export const CNPG_KINDS = Object.freeze({ Cluster: 'clusters', Database: 'databases' });

/**
 * CloudNativePG's CRDs for the kinds the chart renders. Its Go module is refused by the proxy, so
 * they are made from the npm package @kubernetes-models/cloudnative-pg (the lockfile's version):
 * each kind's TypeScript declaration walked into a structural schema, with integers and field enums
 * from the package's compiled validators (scripts/infra/crd-from-declarations.mjs, ADR 0306).
 * Keyed by the package's version and the recipe: the versions of what it reads and the generator's hash.
 */
export async function makeCnpgCrds() {
  /** @param {string} name */
  const packageDir = (name) => path.join(ROOT, 'node_modules', name);
  /** @param {string} name @returns {string} */
  const versionOf = (name) => JSON.parse(fs.readFileSync(path.join(packageDir(name), 'package.json'), 'utf8')).version;
  const pkg = '@kubernetes-models/cloudnative-pg';
  const version = versionOf(pkg);
  const generator = new URL('./crd-from-declarations.mjs', import.meta.url);
  const hash = createHash('sha256').update(fs.readFileSync(generator)).digest('hex').slice(0, 12);
  const read = ['kubernetes-models', '@kubernetes-models/apimachinery', 'typescript'].map(
    (n) => `${n} ${versionOf(n)}`,
  );
  // What this function does is named here too (the generator's own code is in its hash).
  const how = 'declarations walked; integers and field enums from the _schemas validators';
  const recipe = `${pkg} ${version}; ${read.join('; ')}; generator ${hash}; ${how}; ${Object.keys(CNPG_KINDS).join(' ')}\n`;
  return cached(path.join(KUBE_CACHE, `cnpg-crds-${version}`), recipe, `CloudNativePG CRDs ${version}`, async (out) => {
    // Imported here: the TypeScript compiler it loads is needed only when the CRDs are made.
    const { customResourceDefinition, refineFromValidator, schemasFromDeclarations } = await import(
      './crd-from-declarations.mjs'
    );
    const group = 'postgresql.cnpg.io';
    /** @type {Record<string, (path: string[], schema: Record<string, unknown>) => Record<string, unknown>>} */
    const refiners = {};
    for (const kind of Object.keys(CNPG_KINDS)) {
      const validator = path.join(packageDir(pkg), '_schemas', `ComGithubCloudnativePgCloudnativePgApiV1${kind}.js`);
      refiners[`I${kind}`] = refineFromValidator((await import(pathToFileURL(validator).href)).validate);
    }
    const schemas = schemasFromDeclarations({
      roots: Object.keys(CNPG_KINDS).map((kind) => ({
        file: path.join(packageDir(pkg), group, 'v1', `${kind}.d.ts`),
        typeName: `I${kind}`,
      })),
      refine: (root, at, schema) => {
        const refine = refiners[root];
        if (!refine) throw new Error(`no validator for ${root}`);
        return refine(at, schema);
      },
    });
    /** @type {Record<string, string[]>} */
    const preserved = {};
    for (const [kind, plural] of Object.entries(CNPG_KINDS)) {
      const schema = schemas.get(`I${kind}`);
      if (!schema) throw new Error(`no schema made for ${kind}`);
      preserved[kind] = schema.preserved;
      const crd = customResourceDefinition({ group, version: 'v1', kind, plural, schema });
      fs.writeFileSync(path.join(out, `${group}_${plural}.yaml`), `${JSON.stringify(crd, null, 1)}\n`);
    }
    // What could not be said structurally (x-kubernetes-preserve-unknown-fields), for ADR 0306's count.
    fs.writeFileSync(path.join(out, 'preserved-unknown-fields.json'), `${JSON.stringify(preserved, null, 2)}\n`);
  });
}

/** Everything the k8s tier needs for one Kubernetes version; independent builds run side by side. */
/** @param {string} [version] */
export async function installControlPlane(version = VERSIONS.kubernetes) {
  const [kube, etcd, kwok, strimzi, keda, prometheus, cnpg] = await Promise.all([
    installKubernetes(version),
    installEtcd(),
    installKwok(),
    makeStrimziCrds(),
    makeKedaCrds(),
    makePrometheusOperatorCrds(),
    makeCnpgCrds(),
  ]);
  // controller-gen also emits keda.sh_withtriggers.yaml for an internal helper type of KEDA's API
  // package; KEDA's releases ship no such CRD, so neither do we.
  /** @param {string} d */
  const crdFiles = (d) =>
    fs
      .readdirSync(d)
      .filter((f) => f.endsWith('.yaml') && !f.includes('withtriggers'))
      .sort()
      .map((f) => path.join(d, f));
  return {
    version,
    bin: /** @type {Record<(typeof KUBE_BINARIES)[number], string>} */ (
      Object.fromEntries(KUBE_BINARIES.map((b) => [b, path.join(kube, b)]))
    ),
    etcd: path.join(etcd, 'etcd'),
    kwok: path.join(kwok, 'kwok'),
    kwokStages: path.join(kwok, 'stages.yaml'),
    crds: [...crdFiles(strimzi), ...crdFiles(keda), ...crdFiles(prometheus), ...crdFiles(cnpg)],
  };
}
