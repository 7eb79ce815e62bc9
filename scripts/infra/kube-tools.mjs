// The parts of a real Kubernetes control plane with simulated nodes (ADR 0302), built from the
// Go module proxy and Maven Central into KUBE_CACHE (outside the clone, keyed by version):
//   kube-family-<v>/  kube-apiserver, kube-controller-manager, kube-scheduler, kubectl, etcd, kwok
//                     and its stages file, controller-gen (with helm and Prometheus: one Go build,
//                     kube-family.mjs, ADR 0307)
//   kubernetes-<v>/   the four Kubernetes binaries of another version (`npm run k8s:matrix`)
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
import { cached } from './cached.mjs';
import { goEnv, goIn } from './go-env.mjs';
import { buildWithKube, installKubeFamily, KUBE_BINARIES, writeKubeModule } from './kube-family.mjs';
import { KUBE_CACHE, ROOT, VERSIONS } from './layout.mjs';
import { exists, run, which } from './process.mjs';

export { KUBE_BINARIES } from './kube-family.mjs';

/** @param {string} bin @param {string} why */
function requireTool(bin, why) {
  if (!which(bin)) throw new Error(`${bin} is required to ${why}`);
}

// ---------------------------------------------------------------------------------------------
// Kubernetes. The version `npm test` runs comes with the tools built on its libraries
// (kube-family.mjs); another version's four binaries are built alone, in a module of their own.
// ---------------------------------------------------------------------------------------------

/** @param {string} [version] */
function kubernetesDir(version = VERSIONS.kubernetes) {
  return path.join(KUBE_CACHE, `kubernetes-${version}`);
}

/** @param {string} [version] @returns {Promise<string>} the folder holding KUBE_BINARIES */
export async function installKubernetes(version = VERSIONS.kubernetes) {
  if (version === VERSIONS.kubernetes) return installKubeFamily();
  const recipe = `kubernetes ${version}; ${KUBE_BINARIES.join(' ')}\n`;
  return cached(kubernetesDir(version), recipe, `kubernetes ${version}`, async (/** @type {string} */ out) => {
    requireTool('go', 'build the Kubernetes control plane');
    const mod = path.join(out, 'src');
    await writeKubeModule(mod, version);
    fs.writeFileSync(
      path.join(mod, 'tools.go'),
      `//go:build tools\n\npackage tools\n\nimport (\n${KUBE_BINARIES.map((b) => `\t_ "k8s.io/kubernetes/cmd/${b}"\n`).join('')})\n`,
    );
    await goIn(mod, ['mod', 'tidy']);
    await buildWithKube(
      mod,
      out,
      version,
      KUBE_BINARIES.map((b) => `k8s.io/kubernetes/cmd/${b}`),
    );
    fs.rmSync(mod, { recursive: true, force: true });
  });
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
    await goIn(mod, ['mod', 'tidy']);
    // controller-gen comes from the shared build; this module only gives it the API package, and
    // keeps controller-tools among its requirements so the API's dependencies resolve as before.
    const controllerGen = path.join(await installKubeFamily(), 'controller-gen');
    await run(controllerGen, ['crd', 'paths=github.com/kedacore/keda/v2/apis/keda/v1alpha1', `output:crd:dir=${out}`], {
      cwd: mod,
      env: goEnv(),
    });
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
    await goIn(mod, ['mod', 'tidy']);
    // controller-gen comes from the shared build; this module only gives it the API package, and
    // keeps controller-tools among its requirements so the API's dependencies resolve as before.
    const controllerGen = path.join(await installKubeFamily(), 'controller-gen');
    const all = path.join(mod, 'crds');
    await run(controllerGen, ['crd:crdVersions=v1', `paths=${api}/v1`, `output:crd:dir=${all}`], {
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
  // etcd and kwok come from the shared build at every version (the matrix included).
  const [kube, family, strimzi, keda, prometheus, cnpg] = await Promise.all([
    installKubernetes(version),
    installKubeFamily(),
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
    etcd: path.join(family, 'etcd'),
    kwok: path.join(family, 'kwok'),
    kwokStages: path.join(family, 'stages.yaml'),
    crds: [...crdFiles(strimzi), ...crdFiles(keda), ...crdFiles(prometheus), ...crdFiles(cnpg)],
  };
}
