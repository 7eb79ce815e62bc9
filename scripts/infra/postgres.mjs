// PostgreSQL from Debian's binaries: a throwaway cluster under /tmp, run as the `postgres` OS user
// when we are root (Postgres refuses to run as root).

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { IS_ROOT } from './layout.mjs';
import { log } from './log.mjs';
import { exists, killPid, run, waitFor } from './process.mjs';

const PG_USER = 'flatlay';
const PG_PASSWORD = 'flatlay';

/** The newest Debian PostgreSQL bin folder with an initdb, or null when none is installed. */
export function pgBinDir() {
  const base = '/usr/lib/postgresql';
  if (!exists(base)) return null;
  const versions = fs
    .readdirSync(base)
    .filter((v) => exists(path.join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] !== undefined ? path.join(base, versions[0], 'bin') : null;
}

/** The postgres OS user's ids when we run as root (it must own the data), none otherwise. @returns {{ uid: number, gid: number } | { uid?: undefined, gid?: undefined }} */
function postgresIds() {
  if (!IS_ROOT) return {};
  const ids = () => ({
    uid: Number(execFileSync('id', ['-u', 'postgres']).toString().trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres']).toString().trim()),
  });
  try {
    return ids();
  } catch {
    log('creating OS user postgres (Postgres refuses to run as root)');
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/bin/sh', 'postgres']);
    return ids();
  }
}

/** @param {string} bin @param {number} port */
export async function pgReady(bin, port) {
  try {
    await run(path.join(bin, 'pg_isready'), [
      '-q',
      '-h',
      '127.0.0.1',
      '-p',
      String(port),
      '-U',
      PG_USER,
      '-d',
      'postgres',
    ]);
    return true;
  } catch {
    return false;
  }
}

/** @param {string} bin @param {string} url @param {string} sql */
async function pgQuery(bin, url, sql) {
  return (await run(path.join(bin, 'psql'), [url, '-XAtqc', sql])).trim();
}

/** @param {number} port @param {import('./state.mjs').State} state @param {import('./state.mjs').Save} save */
export async function startPostgres(port, state, save) {
  const bin = pgBinDir();
  if (!bin) throw new Error('PostgreSQL binaries not found under /usr/lib/postgresql');
  const ids = postgresIds();
  // Under /tmp so that the `postgres` OS user can reach it whatever the repo's permissions.
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'flatlay-pg-'));
  fs.chmodSync(base, 0o700);
  if (ids.uid !== undefined) fs.chownSync(base, ids.uid, ids.gid);
  const data = path.join(base, 'data');
  const logFile = path.join(base, 'postgres.log');
  state.postgres = { base, data, port, bin, logFile };
  save();
  const pw = path.join(base, 'pw');
  fs.writeFileSync(pw, `${PG_PASSWORD}\n`);
  if (ids.uid !== undefined) fs.chownSync(pw, ids.uid, ids.gid);
  const asPg = { ...ids, cwd: base, env: { ...process.env, LC_ALL: 'C', LANG: 'C' } };
  await run(
    path.join(bin, 'initdb'),
    [
      '-D',
      data,
      '-U',
      PG_USER,
      `--pwfile=${pw}`,
      '--auth-host=scram-sha-256',
      '--auth-local=trust',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
    ],
    asPg,
  );
  fs.rmSync(pw);
  const opts = [
    `-p ${port}`,
    `-k ${base}`,
    '-c listen_addresses=127.0.0.1',
    '-c max_connections=300',
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c shared_buffers=128MB',
  ].join(' ');
  state.postgres.opts = opts;
  // detached: the postmaster gets its own session, so a Ctrl-C aimed at our caller does not reach it.
  await run(path.join(bin, 'pg_ctl'), ['-D', data, '-l', logFile, '-o', opts, '-w', '-t', '60', 'start'], {
    ...asPg,
    detached: true,
  });
  const url = `postgres://${PG_USER}:${PG_PASSWORD}@127.0.0.1:${port}/postgres`;
  await waitFor('postgres', async () => (await pgReady(bin, port)) && (await pgQuery(bin, url, 'select 1')) === '1', {
    timeoutMs: 30000,
    logFile,
  });
  state.postgres.pid = Number(fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  state.postgres.url = url;
  save();
  log(`postgres: ready on 127.0.0.1:${port} (pid ${state.postgres.pid})`);
}

/** @param {import('./state.mjs').ServiceRecord | undefined} pg */
export async function stopPostgres(pg) {
  if (!pg) return;
  if (pg.data && exists(path.join(pg.data, 'postmaster.pid'))) {
    try {
      await run(path.join(pg.bin, 'pg_ctl'), ['-D', pg.data, '-m', 'fast', '-w', '-t', '30', 'stop'], {
        ...postgresIds(),
        cwd: pg.base,
      });
    } catch (e) {
      log(`postgres: pg_ctl stop failed, killing (${String(e instanceof Error ? e.message : e).split('\n')[0]})`);
    }
  }
  if (pg.pid) await killPid(pg.pid, 'postgres', { graceMs: 5000 });
  if (pg.base?.startsWith(path.join(os.tmpdir(), 'flatlay-pg-'))) fs.rmSync(pg.base, { recursive: true, force: true });
}

/**
 * Restarts the server `startPostgres` recorded (the fault tier's Postgres restart): a fast stop
 * (every connection cut, as a failover does) and a start on the same data; answers the new pid.
 */
/** @param {import('./state.mjs').ServiceRecord} pg */
export async function restartPostgres(pg) {
  const asPg = { ...postgresIds(), cwd: pg.base, env: { ...process.env, LC_ALL: 'C', LANG: 'C' } };
  await run(path.join(pg.bin, 'pg_ctl'), ['-D', pg.data, '-m', 'fast', '-w', '-t', '30', 'stop'], asPg);
  await run(path.join(pg.bin, 'pg_ctl'), ['-D', pg.data, '-l', pg.logFile, '-o', pg.opts, '-w', '-t', '60', 'start'], {
    ...asPg,
    detached: true,
  });
  pg.pid = Number(fs.readFileSync(path.join(pg.data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  return pg.pid;
}
