// Set-up steps shared by `npm start` and `npm test`, using Node built-ins only: they run
// before dependencies are installed.
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '..', '..');

/**
 * Runs one titled set-up step; a failed command (an exec error with a status) ends the process
 * with `hint`, anything else is rethrown.
 * @template T
 * @param {string} title @param {() => T} fn @param {string} [hint]
 * @returns {T}
 */
export function step(title, fn, hint) {
  const started = Date.now();
  process.stdout.write(`› ${title}\n`);
  let result;
  try {
    result = fn();
  } catch (error) {
    // The command already printed what is wrong; add what to do, not a Node stack trace.
    const status = /** @type {{ status?: number | null } | undefined} */ (error)?.status;
    if (status === undefined) throw error;
    process.stderr.write(`\n✖ ${title} failed (exit code ${status}).${hint ? ` ${hint}` : ''}\n`);
    failureExit();
  }
  process.stdout.write(`  done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return result;
}

/**
 * Run (synchronously) before a failed step ends the process: what a background step must undo.
 * @type {Array<() => void>}
 */
const onStepFailure = [];

/** @param {() => void} undo */
export function beforeFailureExit(undo) {
  onStepFailure.push(undo);
}

/**
 * A step that failed by throwing (an awaited build, not a command): says so, undoes what the
 * background steps started (the infrastructure, the image build) and ends the process, as a failed
 * command does. Without it, a rejection ends the process with everything still running.
 * @param {string} title @param {unknown} err @returns {never}
 */
export function failed(title, err) {
  process.stderr.write(`\n✖ ${title} failed: ${(err instanceof Error && err.stack) || err}\n`);
  return failureExit();
}

/** @returns {never} */
function failureExit() {
  for (const undo of onStepFailure.splice(0)) {
    try {
      undo();
    } catch {
      // Best effort: the failure being reported matters more.
    }
  }
  process.exit(1);
}

/**
 * Starts a titled step in the background (a command whose output goes to a file, shown when it
 * is awaited), so that it runs while the synchronous steps that follow use the other core.
 * `wait()` resolves when it succeeded; on failure it prints its output and `hint` and ends the
 * process as `step` does.
 * @param {string} title @param {string} cmd @param {string[]} args @param {string} [hint]
 * @returns {{ wait(): Promise<void>, stop(): void }}
 */
export function background(title, cmd, args, hint) {
  const started = Date.now();
  const logDir = mkdtempSync(join(tmpdir(), 'flatlay-step-'));
  const logFile = join(logDir, 'output.log');
  const fd = openSync(logFile, 'w');
  process.stdout.write(`› ${title} (in the background)\n`);
  const child = spawn(cmd, args, { cwd: repoRoot, stdio: ['ignore', fd, fd], env: process.env });
  closeSync(fd);
  /** @type {Promise<number>} */
  const exited = new Promise((ok) => {
    child.on('exit', (code, signal) => ok(code ?? (signal ? 1 : 0)));
    child.on('error', () => ok(1));
  });
  return {
    async wait() {
      const code = await exited;
      const output = readFileSync(logFile, 'utf8');
      rmSync(logDir, { recursive: true, force: true });
      if (code !== 0) {
        process.stderr.write(`${output}\n✖ ${title} failed (exit code ${code}).${hint ? ` ${hint}` : ''}\n`);
        failureExit();
      }
      process.stdout.write(`› ${title}: done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    },
    stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
    },
  };
}

/**
 * Runs a command in the repository root, its output on ours; throws (with `status`) on a non-zero exit.
 * @param {string} cmd @param {string[]} args
 * @param {import('node:child_process').ExecFileSyncOptions} [options]
 */
export function sh(cmd, args, options = {}) {
  execFileSync(cmd, args, {
    cwd: repoRoot,
    stdio: 'inherit',
    ...options,
    env: { ...process.env, ...(options.env ?? {}) },
  });
}

/**
 * Where installed dependencies are kept between clones: a fresh clone (CI's, a new machine's second
 * checkout) copies them in a few seconds instead of a minute of `npm install`. Keyed by the lockfile,
 * Node's version and the platform, as native modules are built for those.
 */
const MODULES_CACHE = join(
  process.env.FLATLAY_CACHE ? resolve(process.env.FLATLAY_CACHE) : join(homedir(), '.cache', 'flatlay'),
  'node-modules',
);

/** Installs dependencies when the lockfile changed since the last install (or never ran). */
export function ensureInstalled() {
  const lock = join(repoRoot, 'package-lock.json');
  const modules = join(repoRoot, 'node_modules');
  const stampFile = join(modules, '.flatlay-install-stamp');
  const want = createHash('sha256')
    .update(readFileSync(lock))
    .update(`${process.version} ${process.platform} ${process.arch}`)
    .digest('hex');
  const have = existsSync(stampFile) ? readFileSync(stampFile, 'utf8') : '';
  if (want === have) return false;
  const cached = join(MODULES_CACHE, want.slice(0, 24), 'node_modules');
  if (!existsSync(modules) && existsSync(join(cached, '.flatlay-install-stamp'))) {
    // Only into a clone that has none: a copy over an existing tree would leave stale packages.
    step('Installing dependencies (copied from the cache of this lockfile)', () => sh('cp', ['-a', cached, modules]));
    return true;
  }
  step('Installing dependencies (npm install, from the lockfile)', () =>
    // onnxruntime-node's install script downloads CUDA binaries, which cannot work offline.
    sh('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
      env: { ONNXRUNTIME_NODE_INSTALL: 'skip' },
    }),
  );
  mkdirSync(modules, { recursive: true });
  writeFileSync(stampFile, want);
  keepInCache(modules, cached);
  return true;
}

/**
 * Copies a fresh install into the cache (through a temporary name, so a copy cut off halfway is
 * never used) and drops the older ones. A failure only costs the next clone an `npm install`.
 * @param {string} modules @param {string} cached
 */
function keepInCache(modules, cached) {
  try {
    const entry = dirname(cached);
    if (existsSync(entry)) return;
    mkdirSync(MODULES_CACHE, { recursive: true });
    const partial = mkdtempSync(join(MODULES_CACHE, 'partial-'));
    execFileSync('cp', ['-a', modules, join(partial, 'node_modules')]);
    renameSync(partial, entry);
    for (const name of readdirSync(MODULES_CACHE))
      if (join(MODULES_CACHE, name) !== entry) rmSync(join(MODULES_CACHE, name), { recursive: true, force: true });
  } catch (error) {
    process.stderr.write(`(dependencies not cached: ${/** @type {Error} */ (error).message})\n`);
  }
}

/** @param {string} dir @returns {number} */
function newestMtime(dir) {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const p = join(dir, name);
    const s = statSync(p);
    newest = Math.max(newest, s.isDirectory() ? newestMtime(p) : s.mtimeMs);
  }
  return newest;
}

/**
 * Type-checks the infrastructure's own JavaScript (scripts/, tests/load/: JSDoc types, checkJs) against
 * tsconfig.scripts.json. Node runs these files untyped, so this is the only place their types are checked.
 */
export function typecheckScripts() {
  step('Type-checking scripts/ and tests/load/ (tsconfig.scripts.json)', () =>
    sh('npx', ['--no-install', 'tsc', '-p', 'tsconfig.scripts.json']),
  );
}

/** Checks generated protobuf code, compiles every TypeScript project, builds the web app when it changed. */
export function build() {
  step('Checking proto/ (buf lint, generated code current)', () => sh('node', ['scripts/proto.mjs', 'check']));
  // A developer's build refreshes the API's generated document and types; CI refuses stale
  // committed copies, as it does for protobuf.
  const api = process.env.CI ? 'check' : 'gen';
  step(`API document and types (${api === 'gen' ? 'regenerating' : 'checking'} gateway/openapi/)`, () =>
    sh('node', ['scripts/openapi.mjs', api]),
  );
  step('Compiling TypeScript (tsc -b)', () => sh('npx', ['--no-install', 'tsc', '-b']));
  const web = join(repoRoot, 'web');
  const builtAt = existsSync(join(web, 'dist', 'index.html')) ? statSync(join(web, 'dist', 'index.html')).mtimeMs : 0;
  // The public pages' list (titles, descriptions) is the gateway's; the build prerenders from it (ADR 0714).
  const pages = statSync(join(repoRoot, 'gateway', 'src', 'web', 'public-pages.ts')).mtimeMs;
  if (Math.max(newestMtime(web), pages) > builtAt)
    // Always the production build (what the gateway serves): a NODE_ENV of the caller's (`test`
    // under vitest, `development` in a shell) would bundle React's development build.
    step('Building the web app (vite)', () =>
      sh('npx', ['--no-install', 'vite', 'build', '--logLevel', 'warn'], {
        cwd: web,
        env: { NODE_ENV: 'production' },
      }),
    );
}
