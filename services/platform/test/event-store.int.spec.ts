import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EventStore, START, VersionConflict, type DomainEvent, type Pool } from '../src/index.js';
import { freshDatabase } from './support.js';

type Counted = DomainEvent<'Added', { n: number }>;
const counter = {
  initialState: () => ({ total: 0 }),
  evolve: (s: { total: number }, e: Counted) => ({ total: s.total + e.data.n }),
};
const added = (n: number): Counted => ({ type: 'Added', data: { n } });

describe('PostgreSQL event store', { timeout: 60_000 }, () => {
  let pool: Pool;
  let store: EventStore;
  before(async () => {
    pool = await freshDatabase('es');
    store = new EventStore(pool);
  });
  after(() => pool.end());

  it('appends, reads back in order and folds a stream with a decider', async () => {
    await store.appendToStream('counter-1', [added(2), added(3)], { expectedVersion: 0 });
    const { nextExpectedVersion } = await store.appendToStream('counter-1', [added(5)], { expectedVersion: 2 });
    assert.equal(nextExpectedVersion, 3);
    const events = await store.readStream<Counted>('counter-1');
    assert.deepEqual(events.map((e) => [e.streamPosition, e.data.n]), [[1, 2], [2, 3], [3, 5]]);
    assert.deepEqual(await store.aggregateStream('counter-1', counter), { state: { total: 10 }, version: 3 });
  });

  it('an append at a stale version is a VersionConflict and writes nothing', async () => {
    await store.appendToStream('counter-2', [added(1)], { expectedVersion: 0 });
    await assert.rejects(store.appendToStream('counter-2', [added(1)], { expectedVersion: 0 }), VersionConflict);
    await assert.rejects(store.appendToStream('counter-2', [added(1)], { expectedVersion: 5 }), VersionConflict);
    assert.equal((await store.readStream('counter-2')).length, 1);
  });

  for (const version of [0, 1]) {
    it(`of 20 concurrent appends at expected version ${version}, exactly one wins`, async () => {
      const stream = `race-${version}`;
      if (version === 1) await store.appendToStream(stream, [added(0)], { expectedVersion: 0 });
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) => store.appendToStream(stream, [added(i + 1)], { expectedVersion: version })),
      );
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      assert.equal(won.length, 1);
      assert.ok(lost.every((r) => r.reason instanceof VersionConflict), 'every loser sees a VersionConflict');
      assert.equal((await store.readStream(stream)).length, version + 1);
    });
  }

  it('a reader of the global order never skips a transaction that commits late', async () => {
    const late = await pool.connect();
    const start = (await store.readAll(START, 10_000)).at(-1);
    const from = start ? { transactionId: start.transactionId, position: start.globalPosition } : START;
    try {
      await late.query('BEGIN');
      await store.appendInTransaction(late, 'late-1', [added(1)], { expectedVersion: 0 }); // takes its id first
      await store.appendToStream('early-1', [added(2)], { expectedVersion: 0 }); // commits first
      assert.deepEqual(await store.readAll(from), [], 'nothing is readable past a transaction still running');
      await late.query('COMMIT');
    } finally {
      late.release();
    }
    const read = await store.readAll(from);
    assert.deepEqual(read.map((e) => e.streamName), ['late-1', 'early-1']);
  });
});
