#!/usr/bin/env node
// The test mailbox (ADR 0308): a real SMTP server (Nodemailer's smtp-server) that keeps every
// message it receives in memory, parsed by mailparser, and answers a small HTTP API on loopback so
// the account e-mails' tests can read their messages and follow their links. Started detached by
// `npm test` (scripts/infra/mailbox.mjs); its store is one run's mail, gone with the process.
//
//   node scripts/infra/mailbox-server.mjs <smtp-port> <http-port>
//
//   GET /healthz              200 once both sides listen
//   GET /messages?to=<addr>   { messages: [...] }, oldest first: id, messageId, subject, to, text, html
//
// Unlike scripts/infra.mjs this runs after `npm install` and may use the project's packages.

import http from 'node:http';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

const [smtpPort, httpPort] = process.argv.slice(2).map(Number);
if (!smtpPort || !httpPort) {
  console.error('usage: mailbox-server.mjs <smtp-port> <http-port>');
  process.exit(2);
}

/** @typedef {{ id: string, messageId: string, subject: string, to: string[], text: string, html: string }} Message */
/** @type {Message[]} */
const messages = [];

/** The header's To addresses (a message may carry several To headers, each with several addresses). */
/** @param {import('mailparser').ParsedMail['to']} to @returns {string[]} */
const addressesOf = (to) =>
  (Array.isArray(to) ? to : to ? [to] : []).flatMap((group) => group.value.map((a) => a.address ?? '')).filter(Boolean);

const smtp = new SMTPServer({
  // Loopback only: no TLS offered (a client would refuse its self-signed
  // certificate), any sender and recipient, any credentials or none.
  disabledCommands: ['STARTTLS'],
  authOptional: true,
  onAuth: (_auth, _session, callback) => callback(null, { user: 'test' }),
  size: 25 * 1024 * 1024,
  logger: false,
  onData(stream, session, callback) {
    simpleParser(stream)
      .then((mail) => {
        const headerTo = addressesOf(mail.to);
        messages.push({
          id: String(messages.length + 1),
          messageId: mail.messageId ?? '',
          subject: mail.subject ?? '',
          to: headerTo.length ? headerTo : session.envelope.rcptTo.map((r) => r.address),
          text: mail.text ?? '',
          html: typeof mail.html === 'string' ? mail.html : '',
        });
        callback();
      })
      .catch((/** @type {Error} */ e) => callback(e));
  },
});
smtp.on('error', (e) => console.error(`smtp: ${e.message}`));

const api = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://mailbox');
  /** @param {number} status @param {unknown} body */
  const send = (status, body) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  if (req.method !== 'GET') return send(405, { error: 'only GET is answered' });
  if (url.pathname === '/healthz') return send(200, { messages: messages.length });
  if (url.pathname === '/messages') {
    const to = url.searchParams.get('to')?.toLowerCase();
    if (!to) return send(400, { error: 'name the recipient: /messages?to=<address>' });
    return send(200, { messages: messages.filter((m) => m.to.some((a) => a.toLowerCase() === to)) });
  }
  return send(404, { error: `no such path: ${url.pathname}` });
});

smtp.listen(smtpPort, '127.0.0.1', () => {
  api.listen(httpPort, '127.0.0.1', () =>
    console.log(`mailbox: SMTP 127.0.0.1:${smtpPort}, API 127.0.0.1:${httpPort}`),
  );
});
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    api.close();
    smtp.close(() => process.exit(0));
  });
}
