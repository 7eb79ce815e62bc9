// How far each service's outbox relay is behind: rows committed but not yet published, and how
// long the oldest of them has waited. A growing backlog or age means the bus is away or the relay
// is stuck, and every event behind it (grants, credits, cache invalidations) waits too.
import type pg from 'pg';
import { gaugesOver, withinMs } from '../metrics/instruments.js';

interface OutboxSource {
  service: string;
  pool: pg.Pool;
  /** The relay's checkpoint name (`outbox-relay:<service>`). */
  reader: string;
}

/** One statement per service and scrape: the rows past the relay's checkpoint, and the oldest one's age. */
async function backlogOf(source: OutboxSource): Promise<{ rows: number; oldestAgeS: number }> {
  const { rows } = await source.pool.query({
    name: 'outbox-metrics-backlog',
    text: `SELECT count(*)::int AS rows, COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float8 AS oldest
           FROM outbox WHERE (transaction_id, position) > (
             COALESCE((SELECT transaction_id FROM checkpoints WHERE reader = $1), '0'::xid8),
             COALESCE((SELECT position FROM checkpoints WHERE reader = $1), 0::bigint))`,
    values: [source.reader],
  });
  return { rows: rows[0].rows, oldestAgeS: Math.max(0, rows[0].oldest) };
}

const trackSource = gaugesOver<OutboxSource, 'backlog' | 'age'>(
  {
    backlog: {
      name: 'flatlay.outbox.backlog',
      description: "Outbox rows committed but not yet published by the service's relay",
      unit: '{row}',
    },
    age: {
      name: 'flatlay.outbox.oldest_age',
      description: 'How long the oldest unpublished outbox row has waited (0 when none waits)',
      unit: 's',
    },
  },
  async (source, record) => {
    const read = await withinMs(2_000, () => backlogOf(source));
    if (!read) return;
    const attributes = { 'flatlay.service': source.service };
    record('backlog', read.rows, attributes);
    record('age', read.oldestAgeS, attributes);
  },
);

/** Reports the outbox of `service` (its pool, its relay's checkpoint) until the returned function is called. */
export function trackOutbox(service: string, pool: pg.Pool, reader: string): () => void {
  return trackSource({ service, pool, reader });
}
