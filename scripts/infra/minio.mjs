// MinIO, a real S3 server for the image service's S3 blob-store contract: built with the other Go
// tools (kube-family.mjs), linked into .infra/bin and run detached on free loopback ports.

import fs from 'node:fs';
import path from 'node:path';
import { linkGoTool } from './go-tools.mjs';
import { MINIO_BIN, RUN } from './layout.mjs';
import { log } from './log.mjs';
import { httpGet } from './probe.mjs';
import { killPid, spawnDaemon, waitFor } from './process.mjs';

// Test-only credentials of a server that listens on loopback and lives for one run.
export const MINIO_USER = 'flatlay-test';
export const MINIO_PASSWORD = 'flatlay-test-secret';
export const MINIO_BUCKET = 'flatlay-test';

export const installMinio = () => linkGoTool(MINIO_BIN, 'minio');

/** @param {number} port */
export async function minioOk(port) {
  const res = await httpGet(`http://127.0.0.1:${port}/minio/health/live`);
  return res.status === 200;
}

/**
 * @param {number} port @param {number} consolePort
 * @param {import('./state.mjs').State} state @param {import('./state.mjs').Save} save
 */
export async function startMinio(port, consolePort, state, save) {
  const dir = path.join(RUN, 'minio');
  fs.mkdirSync(path.join(dir, 'data'), { recursive: true });
  const logFile = path.join(dir, 'minio.log');
  const args = ['server', path.join(dir, 'data'), '--address', `127.0.0.1:${port}`];
  args.push('--console-address', `127.0.0.1:${consolePort}`, '--quiet');
  const child = spawnDaemon(MINIO_BIN, args, logFile, {
    cwd: dir,
    env: { ...process.env, MINIO_ROOT_USER: MINIO_USER, MINIO_ROOT_PASSWORD: MINIO_PASSWORD, MINIO_BROWSER: 'off' },
  });
  state.minio = { pid: child.pid, port, consolePort, logFile };
  save();
  await waitFor('minio', () => minioOk(port), { timeoutMs: 60000, child, logFile });
  log(`minio: ready on 127.0.0.1:${port} (pid ${child.pid})`);
}

/** @param {import('./state.mjs').ServiceRecord | undefined} s */
export async function stopMinio(s) {
  if (s?.pid) await killPid(s.pid, 'minio', { graceMs: 5000, group: true });
}

/** The S3_* settings tests read (the bucket is created by the test that uses it). */
/** @param {import('./state.mjs').ServiceRecord} s */
export const minioEnv = (s) =>
  s && {
    S3_ENDPOINT: `http://127.0.0.1:${s.port}`,
    S3_BUCKET: MINIO_BUCKET,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: MINIO_USER,
    S3_SECRET_ACCESS_KEY: MINIO_PASSWORD,
  };
