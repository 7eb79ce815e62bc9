// The embedded default's PostgreSQL started from data folders that the `postgres` OS user (which
// runs the server when we are root) cannot reach through their parents: a checkout or data folder
// inside a private (0700) folder, as a clone in /root or a mktemp folder gives.
import assert from 'node:assert/strict';
import { mkdtemp, readlink, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'vitest';
import pg from 'pg';
import { startEmbeddedPostgres } from '../src/index.js';

const asRoot = process.getuid?.() === 0;

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

/** The executable of the server process that answers this connection (read while the session is open). */
async function serverExecutable(url: string): Promise<string> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    return await readlink(`/proc/${rows[0]!.pid}/exe`);
  } finally {
    await client.end();
  }
}

const inside = (dir: string, file: string) => !relative(dir, file).startsWith('..');
const modeOf = async (dir: string) => (await stat(dir)).mode & 0o777;

describe('embedded PostgreSQL', { timeout: 180_000 }, () => {
  it('starts from a data folder inside a private folder, changes no permission outside the data folder, and keeps data across restarts', async () => {
    const priv = await mkdtemp(join(tmpdir(), 'flatlay-private-'));
    assert.equal(await modeOf(priv), 0o700);
    const dataDir = join(priv, 'checkout', '.data', 'postgres');
    let relocated: string | undefined;
    try {
      const first = await startEmbeddedPostgres(dataDir);
      try {
        await query(first.url, "create table kept (note text); insert into kept values ('before restart')");
        const [setting] = await query<{ dir: string }>(first.url, "select current_setting('data_directory') as dir");
        assert.equal(setting?.dir, first.databaseDir);
        if (asRoot) {
          // the postgres user cannot enter the private folder, so the cluster lives where it can
          assert.ok(!inside(priv, first.databaseDir), first.databaseDir);
          relocated = dirname(first.databaseDir);
          assert.ok(
            inside(relocated, await serverExecutable(first.url)),
            'the server runs from the copy beside the cluster, not from node_modules',
          );
        }
      } finally {
        await first.stop();
      }
      assert.equal(await modeOf(priv), 0o700, 'the private folder stays private');

      const second = await startEmbeddedPostgres(dataDir);
      try {
        assert.equal(
          second.databaseDir,
          (await query<{ dir: string }>(second.url, "select current_setting('data_directory') as dir"))[0]!.dir,
        );
        assert.deepEqual(await query(second.url, 'select note from kept'), [{ note: 'before restart' }]);
      } finally {
        await second.stop();
      }
    } finally {
      await rm(priv, { recursive: true, force: true });
      if (relocated) await rm(relocated, { recursive: true, force: true });
    }
  });

  it('runs the server from a copy in the data folder, so a checkout in a private folder does not matter', async () => {
    const dataHome = await mkdtemp(join(tmpdir(), 'flatlay-data-'));
    try {
      const server = await startEmbeddedPostgres(join(dataHome, 'postgres'));
      try {
        assert.equal(server.databaseDir, join(dataHome, 'postgres'));
        assert.deepEqual(await query(server.url, 'select 1 as one'), [{ one: 1 }]);
        const executable = await serverExecutable(server.url);
        if (asRoot) assert.ok(inside(join(dataHome, 'postgres-runtime'), executable), executable);
        else assert.match(executable, /node_modules/, 'as its own user, the server runs from the package itself');
      } finally {
        await server.stop();
      }
    } finally {
      await rm(dataHome, { recursive: true, force: true });
    }
  });
});
