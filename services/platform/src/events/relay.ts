import type pg from 'pg';
import { withTransaction } from '../db/pool.js';
import type { Bus } from '../bus/bus.js';
import type { Logger } from '../logger.js';
import { START, type GlobalPosition } from './event-store.js';
import { instrument } from '../metrics/instruments.js';
import { onOutboxCommitted } from './outbox-wake.js';

export interface OutboxRelayOptions {
  pool: pg.Pool;
  bus: Bus;
  /** Checkpoint name; one relay of this name publishes at a time. */
  name: string;
  logger?: Logger;
  batchSize?: number;
  /**
   * How often to look for new rows when idle: a one-statement check (is anything committed past
   * the checkpoint?), and a pass only when it finds something. Rows written in this process wake
   * the relay at once (outboxWritten); the check finds those of other processes, and rows a pass
   * left behind a transaction that was still running.
   */
  pollMs?: number;
  /**
   * While checks keep finding nothing, each waits twice as long as the one before, up to this
   * (ms): a relay idles at a few checks a second, and is back at `pollMs` once anything happens.
   */
  maxPollMs?: number;
}

interface OutboxRow {
  position: number;
  transaction_id: string;
  topic: string;
  message_key: string;
  envelope: Buffer;
  headers: Record<string, string>;
}

/**
 * Publishes the outbox to the bus in commit order. A batch is published before its checkpoint
 * moves, in one transaction holding an advisory lock: a relay killed after publishing
 * publishes again (consumers' inboxes absorb the duplicate), one killed before publishing
 * loses nothing, and rows of transactions still running are left for a later pass.
 */
export class OutboxRelay {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  /** Set when rows committed while a pass or check was under way. */
  private woken = false;
  private stopWaking: (() => void) | undefined;

  constructor(private readonly options: OutboxRelayOptions) {}

  /** One pass; returns how many messages were published. */
  async runOnce(): Promise<number> {
    const { pool, bus, name } = this.options;
    const lockKey = hashName(name);
    return withTransaction(pool, async (tx) => {
      const { rows: lock } = await tx.query('SELECT pg_try_advisory_xact_lock($1) AS ok', [lockKey]);
      if (!lock[0].ok) return 0; // another replica is relaying
      const from = await readCheckpoint(tx, name);
      // Rows are read only below the horizon: the oldest transaction still running that could
      // write to this outbox. The snapshot's xmin would be that horizon, but it counts running
      // transactions of every database on the server, so one long transaction elsewhere would
      // hold every relay back. Transactions positively known to run in another database (a
      // backend never changes database) are left out; any other running one (including one that
      // ended since the snapshot, or one whose database cannot be seen) still holds the horizon.
      const { rows } = await tx.query<OutboxRow>(
        `WITH snap AS (SELECT pg_current_snapshot() AS s),
         elsewhere AS (
           SELECT backend_xid::text::bigint AS xid32 FROM pg_stat_activity
           WHERE backend_xid IS NOT NULL AND datname IS NOT NULL AND datname <> current_database()
         ),
         horizon AS (
           SELECT COALESCE(
             (SELECT min(x) FROM snap, pg_snapshot_xip(snap.s) AS x
              WHERE (x::text::bigint % 4294967296) NOT IN (SELECT xid32 FROM elsewhere)),
             (SELECT pg_snapshot_xmax(s) FROM snap)
           ) AS h
         )
         SELECT position, transaction_id::text, topic, message_key, envelope, headers FROM outbox
         WHERE (transaction_id, position) > ($1::xid8, $2::bigint)
           AND transaction_id < (SELECT h FROM horizon)
         ORDER BY transaction_id, position LIMIT $3`,
        [from.transactionId, from.position, this.options.batchSize ?? 200],
      );
      if (rows.length === 0) return 0;
      await bus.publish(
        rows.map((r) => ({ topic: r.topic, key: r.message_key, value: r.envelope, headers: r.headers })),
      );
      published().add(rows.length, { 'flatlay.outbox.relay': name });
      const last = rows[rows.length - 1]!;
      await tx.query(
        `INSERT INTO checkpoints (reader, transaction_id, position) VALUES ($1, $2::xid8, $3)
         ON CONFLICT (reader) DO UPDATE SET transaction_id = EXCLUDED.transaction_id, position = EXCLUDED.position, updated_at = now()`,
        [name, last.transaction_id, last.position],
      );
      return rows.length;
    });
  }

  /** Publishes until the outbox is drained; for tests and shutdown. */
  async drain(): Promise<void> {
    while ((await this.runOnce()) > 0);
  }

  /**
   * Relays until stopped: a pass whenever rows written in this process may have committed, again
   * at once while passes publish, and otherwise a cheap check that starts a pass only when
   * something committed past the checkpoint (another process's rows, rows a pass had to leave
   * behind a running transaction, or a pass that found another replica relaying): every `pollMs`
   * after anything happened, backing off to `maxPollMs` while nothing does.
   */
  start(): void {
    const pollMs = this.options.pollMs ?? 100;
    const maxPollMs = Math.max(pollMs, this.options.maxPollMs ?? 1_000);
    let idleMs = pollMs;
    const schedule = (next: 'pass' | 'check', delayMs: number) => {
      if (this.stopped) return;
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.running = step(next);
      }, delayMs);
    };
    const step = async (kind: 'pass' | 'check') => {
      if (this.stopped) return;
      this.woken = false;
      let next: 'pass' | 'check' = 'check';
      let quiet = false;
      try {
        if (kind === 'check' && !(await this.hasUnpublished())) quiet = true;
        else next = (await this.runOnce()) > 0 ? 'pass' : 'check';
      } catch (error) {
        this.options.logger?.warn({ err: error }, 'outbox relay pass failed; will retry');
        idleMs = pollMs;
        return schedule('pass', pollMs);
      } finally {
        this.running = undefined;
      }
      if (next === 'pass' || this.woken) {
        idleMs = pollMs;
        return schedule('pass', 0);
      }
      // A check that found nothing waits longer each time; after a pass, or a check that found
      // something (held behind a running transaction, or another replica relaying), the next is soon.
      const delay = quiet ? idleMs : pollMs;
      idleMs = quiet ? Math.min(idleMs * 2, maxPollMs) : pollMs;
      schedule('check', delay);
    };
    this.stopWaking = onOutboxCommitted(this.options.pool, () => {
      if (this.stopped) return;
      if (this.running) {
        // A pass under way may have started before that commit: another one follows it.
        this.woken = true;
        return;
      }
      if (this.timer) clearTimeout(this.timer);
      this.timer = undefined;
      idleMs = pollMs;
      this.running = step('pass');
    });
    this.running = step('pass');
  }

  /** One statement, no transaction: is any committed row past the checkpoint (published or not by this relay)? */
  private async hasUnpublished(): Promise<boolean> {
    const { rows } = await this.options.pool.query({
      name: 'outbox-relay-pending',
      text: `SELECT EXISTS (
         SELECT 1 FROM outbox WHERE (transaction_id, position) > (
           COALESCE((SELECT transaction_id FROM checkpoints WHERE reader = $1), '0'::xid8),
           COALESCE((SELECT position FROM checkpoints WHERE reader = $1), 0::bigint))
       ) AS pending`,
      values: [this.options.name],
    });
    return rows[0].pending === true;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopWaking?.();
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}

const published = () =>
  instrument('flatlay.outbox.published', (meter) =>
    meter.createCounter('flatlay.outbox.published', {
      description: 'Outbox rows a relay published to the bus (a row published again after a crash counts again)',
      unit: '{message}',
    }),
  );

export async function readCheckpoint(db: Pick<pg.PoolClient, 'query'>, reader: string): Promise<GlobalPosition> {
  const { rows } = await db.query('SELECT transaction_id::text, position FROM checkpoints WHERE reader = $1', [reader]);
  return rows[0] ? { transactionId: rows[0].transaction_id, position: rows[0].position } : START;
}

function hashName(name: string): number {
  let h = 0;
  for (const c of name) h = (Math.imul(h, 31) + c.charCodeAt(0)) | 0;
  return h;
}
