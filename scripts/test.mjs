#!/usr/bin/env node
// `npm test`: installs, builds (proto check + type check), provisions real Postgres, Kafka,
// Redis and stripe-mock, runs every test tier with vitest, and stops what it started.
//   npm test                    every tier
//   npm test -- unit            one tier (unit | int | e2e | k8s | fault | container); or file paths / substrings to filter
// The container tier (tests/container, ADR 0304) runs every component from the image the Dockerfile
// builds with podman, as the chart runs them; the image is built in the background while the other
// tiers run. The k8s tier runs the chart on a real control plane with kwok nodes (tests/k8s, ADR 0302).
// The fault tier (tests/fault, ADR 0011) runs beside the others, on a Postgres, Kafka and Toxiproxy of its own.
// FLATLAY_FAULTS=all (`npm run faults`) runs its longer set.
// Every tier runs on vitest (vitest.config.ts); the run ends with the line `N passed, N failed`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { down, install } from './infra.mjs';
import { installGo } from './infra/apt.mjs';
import { installControlPlane } from './infra/kube-tools.mjs';
import { installToxiproxy } from './infra/toxiproxy.mjs';
import {
  background,
  beforeFailureExit,
  build,
  ensureInstalled,
  repoRoot,
  sh,
  step,
  typecheckScripts,
} from './lib/steps.mjs';

const TIERS = ['unit', 'int', 'e2e', 'k8s', 'fault', 'container'];
const ROOTS = ['proto', 'services', 'gateway', 'apps', 'web', 'tests', 'scripts'];

/** @param {string} dir @param {string[]} [out] @returns {string[]} */
function findSpecs(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) findSpecs(p, out);
    else if (/\.(unit|int|e2e|k8s|fault|container)\.spec\.tsx?$/.test(name)) out.push(relative(repoRoot, p));
  }
  return out;
}

/**
 * Starts scripts/infra/containers.mjs (tools, base image, product image) in the background; its
 * outcome and step times land in `statusFile` (removed first, so an old one is never read).
 * @param {string} statusFile
 */
function startImageBuild(statusFile) {
  rmSync(statusFile, { force: true });
  process.stdout.write('› Building the container image (in the background; the container tier waits for it)\n');
  const child = spawn(
    process.execPath,
    [join(repoRoot, 'scripts', 'infra', 'containers.mjs'), 'image', '--status', statusFile],
    { cwd: repoRoot, stdio: 'ignore', env: process.env },
  );
  return { stop: () => child.exitCode === null && child.kill('SIGTERM') };
}

/** The container steps' times, in the style of the steps above. @param {string} statusFile */
function printImageTimes(statusFile) {
  if (!existsSync(statusFile)) return;
  const { ok, times = {}, baseBuilt } = JSON.parse(readFileSync(statusFile, 'utf8'));
  if (times.base !== undefined)
    console.log(`› Container base image (${baseBuilt ? 'built' : 'cached'}): done in ${times.base.toFixed(1)} s`);
  if (times.image !== undefined)
    console.log(`› Container image build (buildah bud): done in ${times.image.toFixed(1)} s`);
  if (!ok) console.log("✖ Container image build failed (its error is in the container tier's failure)");
}

const filters = process.argv.slice(2);
/** @param {string} f findSpecs only collects names that carry a tier */
const tierOf = (f) => /** @type {string} */ (f.match(/\.(unit|int|e2e|k8s|fault|container)\.spec\./)?.[1]);
let files = ROOTS.flatMap((r) => findSpecs(join(repoRoot, r))).sort(
  (a, b) => TIERS.indexOf(tierOf(a)) - TIERS.indexOf(tierOf(b)) || a.localeCompare(b),
);
if (filters.length)
  files = files.filter((f) => filters.some((x) => (TIERS.includes(x) ? tierOf(f) === x : f.includes(x))));
if (files.length === 0) {
  console.error(`No test files match ${filters.join(' ')}`);
  process.exit(1);
}

ensureInstalled();
// Format and lint first (Biome, biome.json): the cheapest check, and it names the file to fix.
step(
  'Checking format and lint (biome check)',
  () => sh('npx', ['--no-install', 'biome', 'check', '--error-on-warnings', '.']),
  'Run `npm run format` for formatting; fix the lint findings above by hand.',
);
const needsInfra = files.some((f) => ['int', 'e2e', 'container'].includes(tierOf(f)));
// Three things that do not depend on each other run at once, on the machine's two cores: the
// infrastructure starting (mostly waiting on Kafka's JVM), the tests' type check, and the build.
// A failed build stops the infrastructure it started (unless it is kept on purpose).
const infraUp = needsInfra
  ? background('Provisioning real infrastructure (Postgres, Kafka, Redis, stripe-mock, MinIO)', process.execPath, [
      join(repoRoot, 'scripts', 'infra.mjs'),
      'up',
    ])
  : undefined;
if (infraUp)
  beforeFailureExit(() => {
    infraUp.stop();
    if (!process.env.FLATLAY_KEEP_INFRA)
      spawnSync(process.execPath, [join(repoRoot, 'scripts', 'infra.mjs'), 'down'], { stdio: 'inherit' });
  });
// tsx strips types without checking them: check the tests' own code once here.
const testTypes = background('Type-checking tests (tsconfig.tests.json)', 'npx', [
  '--no-install',
  'tsc',
  '-p',
  'tsconfig.tests.json',
]);
build();
// The container image (ADR 0304) packages the build's output: it is built from here on in the
// background, beside the type checks, the tools below and the other tiers' files; the container
// tier waits for the outcome it writes (tests/container/support/podman.ts).
const imageStatus = join(repoRoot, '.infra', 'container-image.json');
const imageBuild = files.some((f) => tierOf(f) === 'container') ? startImageBuild(imageStatus) : undefined;
typecheckScripts();
await testTypes.wait();
// The control plane's binaries and the operators' CRDs are built once per machine (cached outside
// the clone, keyed by version), before vitest starts, so no test's timeout includes a compile.
// The fault tier's Toxiproxy likewise (its Postgres and Kafka are started by the suite itself,
// scripts/infra/fault.mjs). Independent builds run side by side (the control plane's with
// install()'s: helm, Toxiproxy, Prometheus, ...), and each step prints its time.
/** @param {string} title @param {() => Promise<unknown>} fn */
const timed = async (title, fn) => {
  const t = Date.now();
  console.log(`› ${title}`);
  await fn();
  console.log(`  ${title}: done in ${((Date.now() - t) / 1000).toFixed(1)} s`);
};
const k8s = files.some((f) => tierOf(f) === 'k8s');
await Promise.all([
  k8s &&
    // install(): helm and the tools of .infra/bin, Toxiproxy and Prometheus among them.
    timed('Installing the Kubernetes control plane (cached after the first build)', async () => {
      await installGo();
      await Promise.all([install(), installControlPlane(process.env.FLATLAY_KUBE_VERSION || undefined)]);
    }),
  // install() above builds Toxiproxy too: one build of it per process (they share a temporary folder).
  !k8s &&
    files.some((f) => tierOf(f) === 'fault') &&
    timed('Installing Toxiproxy for the fault tier (cached after the first build)', async () => {
      await installGo();
      await installToxiproxy();
    }),
]);
await infraUp?.wait();
/** @type {Record<string, unknown>} */
const infra = needsInfra ? JSON.parse(readFileSync(join(repoRoot, '.infra', 'run', 'env.json'), 'utf8')) : {};
let code = 1;
try {
  const env = {
    ...process.env,
    ...Object.fromEntries(Object.entries(infra).filter(([, v]) => typeof v === 'string')),
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    ...(imageBuild ? { FLATLAY_CONTAINER_IMAGE_STATUS: imageStatus } : {}),
  };
  console.log(
    `› Running ${files.length} test files (${TIERS.map((t) => `${files.filter((f) => tierOf(f) === t).length} ${t}`).join(', ')})`,
  );
  code = await new Promise((ok) => {
    // vitest (vitest.config.ts) runs the chosen files; its summary reporter prints the closing line.
    const vitest = join(repoRoot, 'node_modules', 'vitest', 'vitest.mjs');
    const child = spawn(process.execPath, [vitest, 'run', '--config', join(repoRoot, 'vitest.config.ts'), ...files], {
      cwd: repoRoot,
      env,
      stdio: 'inherit',
    });
    child.on('exit', (c, signal) => ok(c ?? (signal ? 1 : 0)));
  });
} finally {
  imageBuild?.stop();
  if (imageBuild) printImageTimes(imageStatus);
  if (needsInfra && !process.env.FLATLAY_KEEP_INFRA) await down();
}
process.exit(code);
