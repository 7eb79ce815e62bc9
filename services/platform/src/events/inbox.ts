import type pg from 'pg';
import { withTransaction } from '../db/pool.js';

/** Runs a consumer's handler at most once per event id. */
export interface Inbox<Tx = unknown> {
  /** Returns false (and runs nothing) when the event was handled before. */
  handleOnce(consumer: string, eventId: string, work: (tx: Tx) => Promise<void>): Promise<boolean>;
}

/**
 * Postgres inbox: the inbox row and the handler's writes commit together, so a redelivered
 * event finds its row and changes nothing, and a crash mid-handler leaves neither.
 */
export class PostgresInbox implements Inbox<pg.PoolClient> {
  constructor(private readonly pool: pg.Pool) {}

  handleOnce(consumer: string, eventId: string, work: (tx: pg.PoolClient) => Promise<void>): Promise<boolean> {
    return withTransaction(this.pool, async (tx) => {
      const claimed = await tx.query('INSERT INTO inbox (consumer, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
        consumer,
        eventId,
      ]);
      if (claimed.rowCount !== 1) return false;
      await work(tx);
      return true;
    });
  }
}

/** In-memory inbox for unit tests and for handlers with no durable state. */
export class MemoryInbox implements Inbox<undefined> {
  private readonly handled = new Set<string>();
  private readonly running = new Map<string, Promise<boolean>>();

  async handleOnce(consumer: string, eventId: string, work: (tx: undefined) => Promise<void>): Promise<boolean> {
    const key = `${consumer}\u0000${eventId}`;
    if (this.handled.has(key)) return false;
    const inFlight = this.running.get(key);
    if (inFlight) return inFlight.then(() => false);
    const run = work(undefined).then(() => {
      this.handled.add(key);
      return true;
    });
    this.running.set(key, run);
    try {
      return await run;
    } finally {
      this.running.delete(key);
    }
  }
}
