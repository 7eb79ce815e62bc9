import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from '../logger.js';

/** One e-mail as the product writes it: plain text always, HTML beside it. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Stable per queued message (`<id@flatlay>`), so a message sent twice after a crash is recognisable as one. */
  messageId?: string;
}

/** Where e-mail goes: an SMTP server, or (no SMTP configured) files on disk. */
export interface Mailer {
  /** Resolves once the message was accepted (by the SMTP server, or written). */
  send(message: MailMessage): Promise<void>;
  /** Says where mail goes, for the start-up log (never a password). */
  readonly description: string;
  close(): void;
}

export interface MailerOptions {
  /** smtp:// or smtps:// URL (user and password in it when the server wants them); unset: write files to `dir`. */
  smtpUrl?: string;
  /** The sender, e.g. `Flatlay <no-reply@example.com>`. */
  from: string;
  /** Folder for messages when no SMTP server is configured. */
  dir: string;
  logger: Logger;
}

/** The links in a message's text: what a developer reading the log of an offline `npm start` follows. */
export const linksIn = (text: string): string[] => text.match(/https?:\/\/[^\s<>"]+/g) ?? [];

/**
 * nodemailer (the Node mail library; it speaks SMTP with STARTTLS, auth and pooling, and writes
 * RFC 5322 messages) in both modes: over SMTP, or rendered to an `.eml` file per message, so the
 * flows work on a machine with no mail server (the message's links are logged there, and only
 * there: a developer's own mailbox is the log).
 */
export function createMailer(options: MailerOptions): Mailer {
  if (options.smtpUrl) {
    const transport: Transporter = nodemailer.createTransport(options.smtpUrl, { from: options.from });
    const url = new URL(options.smtpUrl);
    return {
      description: `SMTP ${url.protocol}//${url.host}`,
      async send(message) {
        await transport.sendMail({ ...message, from: options.from });
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    description: `files in ${options.dir} (no SMTP_URL set)`,
    async send(message) {
      const info = await transport.sendMail({ ...message, from: options.from });
      await fs.mkdir(options.dir, { recursive: true, mode: 0o700 });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(options.dir, `${stamp}-${(message.messageId ?? 'mail').replace(/[^\w.-]/g, '')}.eml`);
      await fs.writeFile(file, info.message as Buffer, { mode: 0o600 });
      options.logger.info(
        { to: message.to, subject: message.subject, file, links: linksIn(message.text) },
        'e-mail written to a file (no SMTP_URL set): its links are here',
      );
    },
    close: () => transport.close(),
  };
}
