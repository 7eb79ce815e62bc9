// How an outbox relay learns, in its own process, that rows were committed to its outbox: the
// writer marks the connection it inserted on, and the relay is woken when that connection goes
// back to the pool (after its COMMIT, or at once for a statement run on the pool itself). Writers
// in other processes are found by the relay's cheap idle check (relay.ts).
import type pg from 'pg';
import type { Queryable } from '../db/pool.js';

/** Connections that inserted outbox rows and have not gone back to their pool yet. */
const pending = new WeakSet<object>();
/** The relays woken by each pool's connections. */
const relaysOf = new WeakMap<object, Set<() => void>>();

const isPoolClient = (db: Queryable): db is pg.PoolClient => typeof (db as pg.PoolClient).release === 'function';

/**
 * Says that an outbox insert ran on `db` (after it ran). On a pooled connection the relays of its
 * pool are woken once it is released, i.e. after its transaction ended (a rolled back one wakes
 * them for nothing); on the pool itself the statement has committed already and they are woken now.
 */
export function outboxWritten(db: Queryable): void {
  if (isPoolClient(db)) pending.add(db);
  else for (const wake of relaysOf.get(db) ?? []) wake();
}

/** Calls `wake` whenever outbox rows written through `pool` in this process may have committed; answers how to stop. */
export function onOutboxCommitted(pool: pg.Pool, wake: () => void): () => void {
  let relays = relaysOf.get(pool);
  if (!relays) {
    const these = new Set<() => void>();
    relays = these;
    relaysOf.set(pool, these);
    pool.on('release', (_error: unknown, client: object) => {
      if (!pending.delete(client)) return;
      for (const w of these) w();
    });
  }
  relays.add(wake);
  return () => {
    relays.delete(wake);
  };
}
