// The test mailbox (ADR 0308): a real SMTP server that keeps what it receives and answers an HTTP
// API to read it; the account e-mails' tests (verify, reset, address change, export, deletion) read
// their links there. A Node process of the project's own (mailbox-server.mjs, on Nodemailer's
// smtp-server), run detached on free loopback ports, its store in memory (one run's mail, gone with
// the process). Nothing to install: its packages come with `npm install`.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RUN } from './layout.mjs';
import { log } from './log.mjs';
import { httpGet } from './probe.mjs';
import { killPid, spawnDaemon, waitFor } from './process.mjs';

const SERVER = fileURLToPath(new URL('./mailbox-server.mjs', import.meta.url));

/** @param {number} httpPort */
export async function mailboxOk(httpPort) {
  const res = await httpGet(`http://127.0.0.1:${httpPort}/healthz`);
  return res.status === 200;
}

/**
 * @param {number} smtpPort @param {number} httpPort
 * @param {import('./state.mjs').State} state @param {import('./state.mjs').Save} save
 */
export async function startMailbox(smtpPort, httpPort, state, save) {
  const dir = path.join(RUN, 'mailbox');
  fs.mkdirSync(dir, { recursive: true });
  const logFile = path.join(dir, 'mailbox.log');
  const child = spawnDaemon(process.execPath, [SERVER, String(smtpPort), String(httpPort)], logFile, { cwd: dir });
  state.mailbox = { pid: child.pid, port: httpPort, smtpPort, logFile };
  save();
  await waitFor('mailbox', () => mailboxOk(httpPort), { timeoutMs: 30000, child, logFile });
  log(`mailbox: SMTP on 127.0.0.1:${smtpPort}, API on 127.0.0.1:${httpPort} (pid ${child.pid})`);
}

/** @param {import('./state.mjs').ServiceRecord | undefined} s */
export async function stopMailbox(s) {
  if (s?.pid) await killPid(s.pid, 'mailbox', { graceMs: 5000, group: true });
}

/** The settings tests read: where to send (SMTP_URL) and where to read what arrived. */
/** @param {import('./state.mjs').ServiceRecord} s */
export const mailboxEnv = (s) =>
  s && {
    SMTP_URL: `smtp://127.0.0.1:${s.smtpPort}`,
    MAILBOX_URL: `http://127.0.0.1:${s.port}`,
  };
