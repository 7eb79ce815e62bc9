// Mailpit, a real SMTP server that keeps what it receives and answers an HTTP API to read it: the
// account e-mails' tests (verify, reset, address change, export, deletion) read their links there.
// Built with `go install` into .infra/bin (like stripe-mock and MinIO) and run detached on free
// loopback ports, its store in memory (one run's mail, gone with the process).

import fs from 'node:fs';
import path from 'node:path';
import { installGoTool } from './go-tools.mjs';
import { MAILPIT_BIN, RUN, VERSIONS } from './layout.mjs';
import { log } from './log.mjs';
import { httpGet } from './probe.mjs';
import { killPid, spawnDaemon, waitFor } from './process.mjs';

export const installMailpit = () => installGoTool('mailpit', 'github.com/axllent/mailpit', VERSIONS.mailpit);

/** @param {number} httpPort */
export async function mailpitOk(httpPort) {
  const res = await httpGet(`http://127.0.0.1:${httpPort}/readyz`);
  return res.status === 200;
}

/**
 * @param {number} smtpPort @param {number} httpPort
 * @param {import('./state.mjs').State} state @param {import('./state.mjs').Save} save
 */
export async function startMailpit(smtpPort, httpPort, state, save) {
  const dir = path.join(RUN, 'mailpit');
  fs.mkdirSync(dir, { recursive: true });
  const logFile = path.join(dir, 'mailpit.log');
  const args = ['--smtp', `127.0.0.1:${smtpPort}`, '--listen', `127.0.0.1:${httpPort}`];
  // No TLS on loopback, any sender and recipient, no cap on the messages a run keeps.
  args.push('--smtp-auth-allow-insecure', '--max', '0', '--disable-version-check', '--quiet');
  const child = spawnDaemon(MAILPIT_BIN, args, logFile, { cwd: dir });
  state.mailpit = { pid: child.pid, port: httpPort, smtpPort, logFile };
  save();
  await waitFor('mailpit', () => mailpitOk(httpPort), { timeoutMs: 30000, child, logFile });
  log(`mailpit: SMTP on 127.0.0.1:${smtpPort}, API on 127.0.0.1:${httpPort} (pid ${child.pid})`);
}

/** @param {import('./state.mjs').ServiceRecord | undefined} s */
export async function stopMailpit(s) {
  if (s?.pid) await killPid(s.pid, 'mailpit', { graceMs: 5000, group: true });
}

/** The settings tests read: where to send (SMTP_URL) and where to read what arrived. */
/** @param {import('./state.mjs').ServiceRecord} s */
export const mailpitEnv = (s) =>
  s && {
    SMTP_URL: `smtp://127.0.0.1:${s.smtpPort}`,
    MAILPIT_URL: `http://127.0.0.1:${s.port}`,
  };
