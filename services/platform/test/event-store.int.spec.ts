import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { EventStore, START, VersionConflict, withTransaction, type DomainEvent, type Pool } from '../src/index.js';
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
  beforeAll(async () => {
    pool = await freshDatabase('es');
    store = new EventStore(pool);
  });
  afterAll(() => pool.end());

  it('appends, reads back in order and folds a stream with a decider', async () => {
    await store.appendToStream('counter-1', [added(2), added(3)], { expectedVersion: 0 });
    const { nextExpectedVersion } = await store.appendToStream('counter-1', [added(5)], { expectedVersion: 2 });
    assert.equal(nextExpectedVersion, 3);
    const events = await store.readStream<Counted>('counter-1');
    assert.deepEqual(
      events.map((e) => [e.streamPosition, e.data.n]),
      [
        [1, 2],
        [2, 3],
        [3, 5],
      ],
    );
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
        Array.from({ length: 20 }, (_, i) =>
          store.appendToStream(stream, [added(i + 1)], { expectedVersion: version }),
        ),
      );
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      assert.equal(won.length, 1);
      assert.ok(
        lost.every((r) => r.reason instanceof VersionConflict),
        'every loser sees a VersionConflict',
      );
      assert.equal((await store.readStream(stream)).length, version + 1);
    });
  }

  it('appends to many streams in one statement, each with its own version check, events and outbox only for those that moved', async () => {
    await store.appendToStream('many-a', [added(1)], { expectedVersion: 0 });
    await store.appendToStream('many-b', [added(1), added(1)], { expectedVersion: 0 });
    await store.appendToStream('many-d', [added(1)], { expectedVersion: 0 });
    const outbox = (key: string) => [
      { topic: 't', key, eventId: randomUUID(), eventType: 'Added', envelope: new Uint8Array([1]) },
    ];
    const moved = await withTransaction(pool, (tx) =>
      store.appendManyInTransaction(tx, [
        { streamName: 'many-a', expectedVersion: 1, events: [added(10)], outbox: outbox('many-a') }, // right version
        { streamName: 'many-b', expectedVersion: 1, events: [added(10)], outbox: outbox('many-b') }, // stale
        { streamName: 'many-c', expectedVersion: 0, events: [added(10), added(20)], outbox: outbox('many-c') }, // new
        { streamName: 'many-d', expectedVersion: 0, events: [added(10)], outbox: outbox('many-d') }, // exists already
      ]),
    );
    assert.deepEqual([...moved].sort(), ['many-a', 'many-c']);
    assert.deepEqual(await store.aggregateStream('many-a', counter), { state: { total: 11 }, version: 2 });
    assert.deepEqual(await store.aggregateStream('many-b', counter), { state: { total: 2 }, version: 2 });
    assert.deepEqual(await store.aggregateStream('many-c', counter), { state: { total: 30 }, version: 2 });
    assert.deepEqual(await store.aggregateStream('many-d', counter), { state: { total: 1 }, version: 1 });
    const { rows } = await pool.query(
      "SELECT message_key FROM outbox WHERE message_key LIKE 'many-%' ORDER BY message_key",
    );
    assert.deepEqual(
      rows.map((r) => r.message_key),
      ['many-a', 'many-c'],
    );
  });

  it('concurrent group commits over the same streams move each stream exactly once per version', async () => {
    const streams = Array.from({ length: 12 }, (_, i) => `group-${i}`);
    for (const s of streams) await store.appendToStream(s, [added(0)], { expectedVersion: 0 });
    // Eight batches, each over all twelve streams in a different order, all at version 1.
    const batches = Array.from({ length: 8 }, (_, b) =>
      [...streams]
        .sort(() => (b % 2 ? 1 : -1))
        .map((streamName) => ({ streamName, expectedVersion: 1, events: [added(b + 1)] })),
    );
    const results = await Promise.allSettled(
      batches.map((batch) => withTransaction(pool, (tx) => store.appendManyInTransaction(tx, batch))),
    );
    const winners = new Map<string, number>();
    for (const r of results)
      if (r.status === 'fulfilled') for (const s of r.value) winners.set(s, (winners.get(s) ?? 0) + 1);
    for (const r of results)
      if (r.status === 'rejected')
        assert.equal(r.reason.code, '40P01', 'the only acceptable failure is a detected deadlock');
    for (const s of streams) {
      assert.equal(winners.get(s), 1, `${s} moved once`);
      assert.equal((await store.readStream(s)).length, 2);
    }
  });

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
    assert.deepEqual(
      read.map((e) => e.streamName),
      ['late-1', 'early-1'],
    );
  });
});
