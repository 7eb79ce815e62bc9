// A service's e-mail, started the same way wherever one sends it (identity's account e-mail,
// billing's receipts): the mailer its settings name, and the relay that sends its mail outbox.
import { tmpdir } from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import type { Logger } from '../logger.js';
import { MailRelay, type QueuedMail } from './mail-outbox.js';
import { createMailer, type MailMessage } from './mailer.js';

export interface MailSettings {
  SMTP_URL?: string;
  MAIL_FROM: string;
  MAIL_DIR?: string;
  NODE_ENV?: string;
}

/**
 * Starts sending `pool`'s mail outbox; answers how to stop (the message in flight finishes). In
 * production without SMTP_URL the messages only reach files, which it says loudly: `what` names
 * the mail that would reach no one.
 */
export function startMail(options: {
  settings: MailSettings;
  pool: pg.Pool;
  logger: Logger;
  render: (mail: QueuedMail) => Promise<MailMessage | undefined>;
  what: string;
}): () => Promise<void> {
  const { settings, logger } = options;
  const mailer = createMailer({
    smtpUrl: settings.SMTP_URL,
    from: settings.MAIL_FROM,
    dir: settings.MAIL_DIR ?? path.join(tmpdir(), 'flatlay-mail'),
    logger,
  });
  if (settings.NODE_ENV === 'production' && !settings.SMTP_URL)
    logger.warn({ mail: mailer.description }, `no SMTP_URL: ${options.what} is written to files and reaches no one`);
  else logger.info({ mail: mailer.description }, `${options.what} goes to`);
  const stop = new MailRelay({ pool: options.pool, mailer, render: options.render, logger }).start();
  return async () => {
    await stop();
    mailer.close();
  };
}
