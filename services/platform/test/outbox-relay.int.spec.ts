import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import {
  createPool,
  EventStore,
  InProcessBus,
  OutboxRelay,
  PostgresInbox,
  decodeEnvelope,
  enqueueOutbox,
  outboxMessage,
  readCheckpoint,
  startTelemetry,
  stopTelemetry,
  tracer,
  withTransaction,
  type Bus,
  type BusMessage,
  type Pool,
} from '../src/index.js';
import { events } from '@flatlay/proto';
import { freshDatabase, testKafkaBus, uniqueName, waitFor } from './support.js';

const started = (topic: string, service: string) =>
  outboxMessage(
    topic,
    'flatlay.events.v1.ServiceStarted',
    events.ServiceStarted,
    { service, version: '1', instanceId: 'i' },
    { aggregateId: service, occurredAt: new Date() },
  );

/** A bus that records what it was asked to publish, and can fail like a crash. */
class RecordingBus extends InProcessBus {
  published: BusMessage[] = [];
  failBefore = false;
  failAfter = false;
  override async publish(messages: BusMessage[]): Promise<void> {
    if (this.failBefore) throw new Error('crash before publish');
    await super.publish(messages);
    this.published.push(...messages);
    if (this.failAfter) throw new Error('crash after publish, before the checkpoint');
  }
}

const serviceOf = (m: BusMessage) => events.ServiceStarted.decode(decodeEnvelope(m.value).payload).service;

describe('Transactional outbox and relay', { timeout: 120_000 }, () => {
  let pool: Pool;
  let bus: RecordingBus;
  const topic = 'platform.test.v1';
  beforeAll(async () => {
    pool = await freshDatabase('outbox');
    bus = new RecordingBus();
    await bus.ensureTopics([{ name: topic, partitions: 2 }]);
  });
  afterAll(() => pool.end());

  const relay = (b: Bus = bus) => new OutboxRelay({ pool, bus: b, name: 'relay-under-test' });

  it('never publishes what was not committed', async () => {
    const tx = await pool.connect();
    try {
      await tx.query('BEGIN');
      await enqueueOutbox(tx, [started(topic, 'uncommitted')]);
      assert.equal(await relay().runOnce(), 0);
      await tx.query('ROLLBACK');
    } finally {
      tx.release();
    }
    await relay().drain();
    assert.equal(bus.published.length, 0);
  });

  it('loses nothing when killed between commit and publish, and keeps commit order', async () => {
    await withTransaction(pool, (tx) =>
      enqueueOutbox(
        tx,
        ['a', 'b', 'c'].map((s) => started(topic, s)),
      ),
    );
    bus.failBefore = true;
    await assert.rejects(relay().runOnce());
    bus.failBefore = false;
    assert.equal(bus.published.length, 0);
    await relay().drain();
    assert.deepEqual(bus.published.map(serviceOf), ['a', 'b', 'c']);
  });

  it('publishes again (never loses) when killed after publishing but before its checkpoint', async () => {
    bus.published = [];
    const before = await readCheckpoint(pool, 'relay-under-test');
    await withTransaction(pool, (tx) => enqueueOutbox(tx, [started(topic, 'd')]));
    bus.failAfter = true;
    await assert.rejects(relay().runOnce());
    bus.failAfter = false;
    assert.deepEqual(await readCheckpoint(pool, 'relay-under-test'), before, 'checkpoint did not move');
    await relay().drain();
    assert.deepEqual(bus.published.map(serviceOf), ['d', 'd']);
  });

  it('waits for a transaction that commits late instead of skipping it', async () => {
    bus.published = [];
    const late = await pool.connect();
    try {
      await late.query('BEGIN');
      await enqueueOutbox(late, [started(topic, 'late')]);
      await withTransaction(pool, (tx) => enqueueOutbox(tx, [started(topic, 'early')]));
      await relay().drain();
      assert.deepEqual(bus.published.map(serviceOf), [], 'the early commit waits behind the running transaction');
      await late.query('COMMIT');
    } finally {
      late.release();
    }
    await relay().drain();
    assert.deepEqual(bus.published.map(serviceOf), ['late', 'early']);
  });

  it('is not held back by a transaction running in another database', async () => {
    bus.published = [];
    const elsewhere = await freshDatabase('outbox_elsewhere');
    const other = await elsewhere.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT pg_current_xact_id()'); // now it holds a transaction id
      await withTransaction(pool, (tx) => enqueueOutbox(tx, [started(topic, 'meanwhile')]));
      await relay().drain();
      assert.deepEqual(bus.published.map(serviceOf), ['meanwhile']);
    } finally {
      await other.query('ROLLBACK');
      other.release();
      await elsewhere.end();
    }
  });

  it('writes events and their outbox messages atomically', async () => {
    bus.published = [];
    const store = new EventStore(pool);
    await store.appendToStream('svc-x', [{ type: 'Started', data: {} }], {
      expectedVersion: 0,
      outbox: [started(topic, 'x')],
    });
    await assert.rejects(
      store.appendToStream('svc-x', [{ type: 'Started', data: {} }], {
        expectedVersion: 0,
        outbox: [started(topic, 'lost')],
      }),
    );
    await relay().drain();
    assert.deepEqual(bus.published.map(serviceOf), ['x']);
  });

  it('carries the trace context of the writing request to the published message', async () => {
    bus.published = [];
    startTelemetry('outbox-test');
    let traceId = '';
    await tracer().startActiveSpan('request', async (span) => {
      traceId = span.spanContext().traceId;
      await withTransaction(pool, (tx) => enqueueOutbox(tx, [started(topic, 'traced')]));
      span.end();
    });
    await relay().drain(); // outside the span, as the relay always is
    assert.equal(bus.published.length, 1);
    assert.match(bus.published[0]!.headers.traceparent ?? '', new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    await stopTelemetry();
  });

  it('a running relay is woken by commits of its own process (no poll could deliver them here)', async () => {
    const own = await freshDatabase('relay_woken');
    const woken = new RecordingBus();
    await woken.ensureTopics([{ name: topic, partitions: 2 }]);
    const running = new OutboxRelay({ pool: own, bus: woken, name: 'woken-relay', pollMs: 3_600_000 });
    running.start();
    const published = () => woken.published.map(serviceOf);
    try {
      await withTransaction(own, (tx) => enqueueOutbox(tx, [started(topic, 'in-a-transaction')]));
      await waitFor(() => published().includes('in-a-transaction'), 'a transaction commit wakes the relay');
      await enqueueOutbox(own, [started(topic, 'autocommit')]);
      await waitFor(() => published().includes('autocommit'), 'a statement on the pool wakes the relay');
      await new EventStore(own).appendToStream('svc-woken', [{ type: 'Started', data: {} }], {
        expectedVersion: 0,
        outbox: [started(topic, 'appended')],
      });
      await waitFor(() => published().includes('appended'), "the event store's append wakes the relay");
      assert.deepEqual(published(), ['in-a-transaction', 'autocommit', 'appended']);
    } finally {
      await running.stop();
      await own.end();
    }
  });

  it("a running relay finds another process's commits, and rows held behind a late one, by its idle check", async () => {
    const own = await freshDatabase('relay_checks');
    const otherProcess = createPool(
      (own as unknown as { options: { connectionString: string } }).options.connectionString,
    );
    const checked = new RecordingBus();
    await checked.ensureTopics([{ name: topic, partitions: 2 }]);
    const running = new OutboxRelay({ pool: own, bus: checked, name: 'checking-relay', pollMs: 20 });
    running.start();
    const published = () => checked.published.map(serviceOf);
    const late = await otherProcess.connect();
    try {
      await withTransaction(otherProcess, (tx) => enqueueOutbox(tx, [started(topic, 'elsewhere')]));
      await waitFor(() => published().includes('elsewhere'), "another process's commit is found");
      await late.query('BEGIN');
      await enqueueOutbox(late, [started(topic, 'late')]);
      await withTransaction(own, (tx) => enqueueOutbox(tx, [started(topic, 'early')]));
      // The early commit woke the relay, whose pass had to leave it behind the running transaction.
      await withTransaction(own, (tx) => enqueueOutbox(tx, [started(topic, 'marker')]));
      await late.query('COMMIT');
      await waitFor(() => published().includes('marker'), 'everything is published once the late one commits');
      assert.deepEqual(published(), ['elsewhere', 'late', 'early', 'marker']);
    } finally {
      late.release();
      await running.stop();
      await otherProcess.end();
      await own.end();
    }
  });

  it('delivers through real Kafka to a consumer whose inbox absorbs the duplicate of a crashed relay', async () => {
    const kafka = testKafkaBus('relay-test');
    const kafkaTopic = uniqueName('platform.relay');
    await kafka.ensureTopics([{ name: kafkaTopic, partitions: 3 }]);
    // Its own database: the rows above are addressed to a topic that exists only on the in-process bus.
    const pool = await freshDatabase('relay_kafka');
    const inbox = new PostgresInbox(pool);
    const handled: string[] = [];
    const deliveries = new Map<string, number>();
    const sentinelsSeen = new Set<string>();
    const sub = await kafka.subscribe({
      groupId: uniqueName('g'),
      topics: [kafkaTopic],
      handle: async (d) => {
        const envelope = decodeEnvelope(d.value);
        const { service, instanceId } = events.ServiceStarted.decode(envelope.payload);
        if (service === 'sentinel') return void sentinelsSeen.add(instanceId);
        deliveries.set(envelope.eventId, (deliveries.get(envelope.eventId) ?? 0) + 1);
        await inbox.handleOnce('relay-test', envelope.eventId, async (tx) => {
          await tx.query('SELECT 1');
          handled.push(service);
        });
      },
    });
    try {
      const names = Array.from({ length: 5 }, () => randomUUID().slice(0, 6));
      await withTransaction(pool, (tx) =>
        enqueueOutbox(
          tx,
          names.map((n) => started(kafkaTopic, n)),
        ),
      );
      // First relay publishes and "dies" before its checkpoint; the second publishes again.
      const crashesAfterPublishing: Bus = {
        ensureTopics: (t) => kafka.ensureTopics(t),
        subscribe: (o) => kafka.subscribe(o),
        close: async () => undefined,
        publish: async (m) => {
          await kafka.publish(m);
          throw new Error('crash');
        },
      };
      const crashing = new OutboxRelay({ pool, bus: crashesAfterPublishing, name: 'kafka-relay' });
      await assert.rejects(crashing.runOnce());
      const relay = new OutboxRelay({ pool, bus: kafka, name: 'kafka-relay' });
      await relay.drain();
      await waitFor(() => handled.length >= 5, 'five events handled');
      // One later message per key lands on the same partition after both copies of that key's
      // event: once every sentinel is in, every duplicate has been delivered, and the check is final.
      const sentinel = (key: string) =>
        outboxMessage(
          kafkaTopic,
          'flatlay.events.v1.ServiceStarted',
          events.ServiceStarted,
          { service: 'sentinel', version: '1', instanceId: key },
          { aggregateId: key, occurredAt: new Date() },
        );
      await withTransaction(pool, (tx) => enqueueOutbox(tx, names.map(sentinel)));
      await relay.drain();
      await waitFor(() => sentinelsSeen.size === names.length, 'a sentinel behind every key');
      assert.equal(deliveries.size, names.length);
      for (const [eventId, n] of deliveries)
        assert.ok(n >= 2, `event ${eventId} was published twice and delivered ${n} times`);
      assert.deepEqual([...handled].sort(), [...names].sort());
    } finally {
      await sub.close();
      await kafka.close();
      await pool.end();
    }
  });
});
