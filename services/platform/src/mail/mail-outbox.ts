import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { type Queryable, withTransaction } from '../db/pool.js';
import { onOutboxCommitted, outboxWritten } from '../events/outbox-wake.js';
import type { Logger } from '../logger.js';
import type { Mailer, MailMessage } from './mailer.js';

/**
 * E-mail through the outbox: a message is a row of `mail_outbox` written in the transaction that
 * causes it (a reset link's row and its message commit together or not at all), and a relay sends
 * it after the commit. A row is deleted once the SMTP server accepted the message, in the
 * transaction that locked it: a process killed before that leaves the row, which is sent after the
 * restart (exactly once, unless it dies in the instant between the server's acceptance and the
 * delete; then the message goes twice with one Message-ID). Rows hold the message's kind and
 * parameters, never its rendered links: those are signed at sending time (no secret waits in a table).
 *
 * The table (each service that sends mail creates it in its migrations):
 *   mail_outbox (id uuid PK, kind text, recipient text, params jsonb, created_at timestamptz,
 *                attempts int, next_attempt_at timestamptz, last_error text, failed_at timestamptz)
 */
export interface QueuedMail {
  id: string;
  kind: string;
  recipient: string;
  params: Record<string, string>;
  createdAt: Date;
}

/** Queues a message inside the caller's transaction (the relay is woken when it commits). */
export async function enqueueMail(
  tx: Queryable,
  mail: { kind: string; recipient: string; params?: Record<string, string> },
): Promise<string> {
  const id = randomUUID();
  await tx.query('INSERT INTO mail_outbox (id, kind, recipient, params) VALUES ($1, $2, $3, $4::jsonb)', [
    id,
    mail.kind,
    mail.recipient,
    JSON.stringify(mail.params ?? {}),
  ]);
  outboxWritten(tx);
  return id;
}

export interface MailRelayOptions {
  pool: pg.Pool;
  mailer: Mailer;
  /** The message for a queued row; undefined when there is nothing to send any more (e.g. its link was used). */
  render: (mail: QueuedMail) => Promise<MailMessage | undefined>;
  logger: Logger;
  /** How often rows of other processes and retries are looked for (ms). */
  pollMs?: number;
  /** Attempts before a message is given up (kept, with `failed_at`, for an operator to read). */
  maxAttempts?: number;
}

/** Seconds before attempt `n + 1` after `n` failures: 2, 4, 8 … up to 15 minutes. */
export const mailRetryDelaySeconds = (failures: number) => Math.min(2 ** failures, 900);

interface Row {
  id: string;
  kind: string;
  recipient: string;
  params: Record<string, string>;
  created_at: Date;
  attempts: number;
}

/** Sends what the outbox holds; one row at a time, under a row lock, so replicas share the work. */
export class MailRelay {
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(private readonly options: MailRelayOptions) {}

  /** Starts sending; answers how to stop (waits for the message in flight). */
  start(): () => Promise<void> {
    const unsubscribe = onOutboxCommitted(this.options.pool, () => this.wake());
    const timer = setInterval(() => this.wake(), this.options.pollMs ?? 1_000);
    timer.unref();
    this.wake();
    return async () => {
      this.stopped = true;
      unsubscribe();
      clearInterval(timer);
      await this.running;
    };
  }

  /** Sends every due message (tests call it to wait for the queue to drain). */
  wake(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          while (!this.stopped && (await this.sendOne()));
        } while (this.again && !this.stopped);
      } catch (error) {
        this.options.logger.warn({ err: error }, 'the mail relay could not read its outbox; it tries again');
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  /** Sends the oldest due message; false when none is due. */
  private sendOne(): Promise<boolean> {
    const { pool, mailer, render, logger } = this.options;
    return withTransaction(pool, async (tx) => {
      const { rows } = await tx.query<Row>(
        `SELECT id, kind, recipient, params, created_at, attempts FROM mail_outbox
          WHERE failed_at IS NULL AND next_attempt_at <= now()
          ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED`,
      );
      const row = rows[0];
      if (!row) return false;
      try {
        const message = await render({
          id: row.id,
          kind: row.kind,
          recipient: row.recipient,
          params: row.params,
          createdAt: row.created_at,
        });
        if (message) await mailer.send({ ...message, messageId: `<${row.id}@flatlay>` });
        await tx.query('DELETE FROM mail_outbox WHERE id = $1', [row.id]);
        logger.info({ mailId: row.id, kind: row.kind, sent: Boolean(message) }, 'e-mail handed to the mail server');
      } catch (error) {
        const attempts = row.attempts + 1;
        const giveUp = attempts >= (this.options.maxAttempts ?? 12);
        await tx.query(
          `UPDATE mail_outbox SET attempts = $2, last_error = $3,
             next_attempt_at = now() + make_interval(secs => $4), failed_at = CASE WHEN $5 THEN now() END
           WHERE id = $1`,
          [
            row.id,
            attempts,
            String((error as Error)?.message ?? error).slice(0, 500),
            mailRetryDelaySeconds(attempts),
            giveUp,
          ],
        );
        logger.warn({ err: error, mailId: row.id, kind: row.kind, attempts, giveUp }, 'an e-mail was not sent');
      }
      return true;
    });
  }
}
