#!/usr/bin/env node
// `npm test`: installs, builds (proto check + type check), provisions real Postgres, Kafka,
// Redis and stripe-mock, runs every test tier with vitest, and stops what it started.
//   npm test                    every tier
//   npm test -- unit            one tier (unit | int | e2e | k8s | fault | container); or file paths / substrings to filter
// The container tier (tests/container, ADR 0304) runs every component from the image the Dockerfile
// builds with podman, as the chart runs them; the image is built in the background while the other
// tiers run (before they start when its build is long). The k8s tier runs the chart on a real control plane with kwok nodes (tests/k8s, ADR 0302).
// The fault tier (tests/fault, ADR 0011) runs beside the others, on a Postgres, Kafka and Toxiproxy of its own.
// FLATLAY_FAULTS=all (`npm run faults`) runs its longer set.
// Every tier runs on vitest (vitest.config.ts); the run ends with the line `N passed, N failed`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { down, install } from './infra.mjs';
import { installGo } from './infra/apt.mjs';
import { imageBuildIsCold } from './infra/containers.mjs';
import { installControlPlane } from './infra/kube-tools.mjs';
import { installToxiproxy } from './infra/toxiproxy.mjs';
import {
  background,
  beforeFailureExit,
  failed,
  build,
  ensureInstalled,
  repoRoot,
  sh,
  step,
  typecheckScripts,
} from './lib/steps.mjs';
import { imageBeforeTests } from './test/image-plan.mjs';
import { SPEC_FILE, specFiles } from './test/spec-files.mjs';

const TIERS = ['unit', 'int', 'e2e', 'k8s', 'fault', 'container'];

/**
 * Starts scripts/infra/containers.mjs (tools, base image, product image) in the background; its
 * outcome and step times land in `statusFile` (removed first, so an old one is never read).
 * `done` resolves when it has ended, whatever its outcome (a failure is the container tier's to report).
 * @param {string} statusFile @param {string} why when it is awaited before the tests, and why
 */
function startImageBuild(statusFile, why) {
  rmSync(statusFile, { force: true });
  process.stdout.write(`› Building the container image (in the background; ${why})\n`);
  const child = spawn(
    process.execPath,
    [join(repoRoot, 'scripts', 'infra', 'containers.mjs'), 'image', '--status', statusFile],
    { cwd: repoRoot, stdio: 'ignore', env: process.env },
  );
  /** @type {Promise<void>} */
  const done = new Promise((ok) => {
    child.on('exit', () => ok());
    child.on('error', () => ok());
  });
  return { stop: () => child.exitCode === null && child.kill('SIGTERM'), done };
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
/** @param {string} f specFiles only collects names that carry a tier */
const tierOf = (f) => /** @type {string} */ (f.match(SPEC_FILE)?.[1]);
let files = specFiles(repoRoot).sort(
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
  ? background(
      'Provisioning real infrastructure (Postgres, Kafka, Redis, stripe-mock, the S3 server, the test mailbox)',
      process.execPath,
      [join(repoRoot, 'scripts', 'infra.mjs'), 'up'],
    )
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
// background, beside the type checks, the tools below and the infrastructure's start. The container
// tier's own wait for it is short (under 100 s, tests/container/support/podman.ts), so the image is
// finished before vitest starts when its build is long (a cold machine: no cached base or dependency
// layer, minutes) or when the container tier's file would start with vitest
// (scripts/test/image-plan.mjs). Otherwise (a warm machine, a full run) the quick build (the
// product's layers, 20 to 35 s) goes on beside the slower tiers' files, minutes long.
const imageStatus = join(repoRoot, '.infra', 'container-image.json');
const imageCache = files.some((f) => tierOf(f) === 'container') ? await imageBuildIsCold() : undefined;
const imageFirst = imageCache && imageBeforeTests({ tiers: files.map(tierOf), cold: imageCache.cold });
const imageBuild = imageCache
  ? startImageBuild(
      imageStatus,
      imageFirst
        ? `finished before the tests start: ${imageCache.cold ? `cold, ${imageCache.reason}` : 'the container tier starts at once'}`
        : `warm, ${imageCache.reason}: the container tier starts after the slower tiers' files`,
    )
  : undefined;
if (imageBuild) beforeFailureExit(() => imageBuild.stop());
typecheckScripts();
await testTypes.wait();
// The control plane's binaries and the operators' CRDs are built once per machine (cached outside
// the clone, keyed by version), before vitest starts, so no test's timeout includes a compile. The
// binaries come from one Go build with helm and Prometheus (ADR 0307), which CI's `infra install`
// has made already; here the step finds them (or waits for the process making them) and makes the
// CRDs. The fault tier's Toxiproxy likewise (its Postgres and Kafka are started by the suite itself,
// scripts/infra/fault.mjs). Each step prints its time.
/** @param {string} title @param {() => Promise<unknown>} fn */
const timed = async (title, fn) => {
  const t = Date.now();
  console.log(`› ${title}`);
  await fn().catch((err) => failed(title, err));
  console.log(`  ${title}: done in ${((Date.now() - t) / 1000).toFixed(1)} s`);
};
const k8s = files.some((f) => tierOf(f) === 'k8s');
await Promise.all([
  k8s &&
    // install(): the tools of .infra/bin (helm, Toxiproxy, Prometheus among them).
    timed('Installing the Kubernetes control plane (cached after the first build)', async () => {
      await installGo();
      await Promise.all([install(), installControlPlane(process.env.FLATLAY_KUBE_VERSION || undefined)]);
    }),
  // install() above links Toxiproxy too (from the one Go build of every tool, ADR 0308).
  !k8s &&
    files.some((f) => tierOf(f) === 'fault') &&
    timed('Installing Toxiproxy for the fault tier (cached after the first build)', async () => {
      await installGo();
      await installToxiproxy();
    }),
]);
await infraUp?.wait();
if (imageBuild && imageFirst)
  await timed('Waiting for the container image build (started after the build above)', () => imageBuild.done);
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
