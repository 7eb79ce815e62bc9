import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { withTransaction, type Queryable } from '../db/pool.js';
import { outboxInsertSql, outboxParams, type OutboxMessage } from './outbox.js';
import { outboxWritten } from './outbox-wake.js';

/** A domain event as the decider sees it: a type name and plain data. */
export interface DomainEvent<T extends string = string, D = unknown> {
  type: T;
  data: D;
}

export interface RecordedEvent<E extends DomainEvent = DomainEvent> {
  eventId: string;
  streamName: string;
  streamPosition: number;
  globalPosition: number;
  transactionId: string;
  type: E['type'];
  data: E['data'];
  metadata: Record<string, unknown>;
  recordedAt: Date;
}

/** Position in the commit-safe global order. */
export interface GlobalPosition {
  transactionId: string;
  position: number;
}
export const START: GlobalPosition = { transactionId: '0', position: 0 };

export interface Decider<S, C, E extends DomainEvent> {
  decide(command: C, state: S): E[];
  evolve(state: S, event: E): S;
  initialState(): S;
}

/** A version conflict is a value the command handler may retry on, not a crash. */
export class VersionConflict extends Error {
  constructor(
    public readonly streamName: string,
    public readonly expectedVersion: number,
  ) {
    super(`Stream ${streamName} is not at version ${expectedVersion}`);
    this.name = 'VersionConflict';
  }
}

export interface AppendOptions {
  /** The version the caller read; 0 means the stream must not exist yet. */
  expectedVersion: number;
  /** Messages to publish, written to the outbox in the same transaction. */
  outbox?: OutboxMessage[];
  metadata?: Record<string, unknown>;
  /** Ids for the events, when the caller needs them beforehand (e.g. to put in outbox envelopes). */
  eventIds?: string[];
}

/** One stream's part of a group commit. */
export interface StreamAppend {
  streamName: string;
  expectedVersion: number;
  events: DomainEvent[];
  eventIds?: string[];
  outbox?: OutboxMessage[];
}

export interface AppendResult {
  nextExpectedVersion: number;
  /** Ids given to the appended events, in order. */
  eventIds: string[];
}

interface EventRow {
  event_id: string;
  stream_name: string;
  stream_position: number;
  global_position: number;
  transaction_id: string;
  event_type: string;
  data: unknown;
  metadata: Record<string, unknown>;
  recorded_at: Date;
}

const toRecorded = <E extends DomainEvent>(r: EventRow): RecordedEvent<E> => ({
  eventId: r.event_id,
  streamName: r.stream_name,
  streamPosition: r.stream_position,
  globalPosition: r.global_position,
  transactionId: r.transaction_id,
  type: r.event_type as E['type'],
  data: r.data as E['data'],
  metadata: r.metadata,
  recordedAt: r.recorded_at,
});

/** The PostgreSQL event store: append with expected version, read a stream, fold it. */
export class EventStore {
  constructor(private readonly pool: pg.Pool) {}

  async appendToStream(streamName: string, events: DomainEvent[], options: AppendOptions): Promise<AppendResult> {
    return withTransaction(this.pool, (tx) => this.appendInTransaction(tx, streamName, events, options));
  }

  /** The same append inside a transaction the caller owns (to write projections alongside). */
  async appendInTransaction(
    tx: Queryable,
    streamName: string,
    events: DomainEvent[],
    options: AppendOptions,
  ): Promise<AppendResult> {
    const { expectedVersion } = options;
    const next = expectedVersion + events.length;
    if (events.length === 0) return { nextExpectedVersion: expectedVersion, eventIds: [] };
    const eventIds = options.eventIds ?? events.map(() => randomUUID());
    if (eventIds.length !== events.length) throw new Error('eventIds must give one id per event');
    // One statement: the conditional stream write is the concurrency check (of N appends at one
    // version, one succeeds and the rest find the version moved), and the events and outbox rows
    // are written only when it passed.
    const moveStream =
      expectedVersion === 0
        ? 'INSERT INTO es_streams (stream_name, stream_version) VALUES ($1, $3) ON CONFLICT DO NOTHING RETURNING 1'
        : 'UPDATE es_streams SET stream_version = $3 WHERE stream_name = $1 AND stream_version = $2 RETURNING 1';
    const outbox = options.outbox ?? [];
    // Named, so each connection plans this statement once (prepared), not on every append.
    const { rows } = await tx.query({
      name: expectedVersion === 0 ? 'es-append-new' : 'es-append',
      text: `WITH moved AS (${moveStream}),
       appended AS (
         INSERT INTO es_events (stream_name, stream_position, event_id, event_type, data, metadata)
         SELECT $1, $2 + ord, id, type, data, $7::jsonb
         FROM unnest($4::uuid[], $5::text[], $6::jsonb[]) WITH ORDINALITY AS e(id, type, data, ord)
         WHERE EXISTS (SELECT 1 FROM moved)
         RETURNING 1),
       published AS (${outboxInsertSql(8, 'EXISTS (SELECT 1 FROM moved)')} RETURNING 1)
       SELECT (SELECT count(*) FROM moved)::int AS moved`,
      values: [
        streamName,
        expectedVersion,
        next,
        eventIds,
        events.map((e) => e.type),
        events.map((e) => JSON.stringify(e.data)),
        JSON.stringify(options.metadata ?? {}),
        ...outboxParams(outbox),
      ],
    });
    if (outbox.length) outboxWritten(tx);
    if (rows[0].moved !== 1) throw new VersionConflict(streamName, expectedVersion);
    return { nextExpectedVersion: next, eventIds };
  }

  /**
   * Appends to many streams in the caller's transaction, in one statement whatever their
   * number (group commit). Each stream keeps its own version check: the returned set names the
   * streams whose append took effect; the others hit a version conflict and wrote nothing.
   * Streams are locked in name order, so concurrent batches cannot deadlock each other.
   */
  async appendManyInTransaction(tx: Queryable, appends: StreamAppend[]): Promise<Set<string>> {
    const work = appends
      .filter((a) => a.events.length > 0)
      .sort((a, b) => (a.streamName < b.streamName ? -1 : a.streamName > b.streamName ? 1 : 0));
    if (new Set(work.map((a) => a.streamName)).size !== work.length)
      throw new Error('appendMany takes each stream at most once');
    if (work.length === 0) return new Set();
    const events = work.flatMap((a) => {
      const ids = a.eventIds ?? a.events.map(() => randomUUID());
      return a.events.map((e, i) => ({
        stream: a.streamName,
        position: a.expectedVersion + 1 + i,
        id: ids[i]!,
        type: e.type,
        data: JSON.stringify(e.data),
      }));
    });
    const outbox = work.flatMap((a) => (a.outbox ?? []).map((m) => ({ m, stream: a.streamName })));
    // One statement: lock the existing streams in name order, move those still at their expected
    // version (or create new ones), and write events and outbox rows only for the streams that moved.
    const { rows } = await tx.query({
      name: 'es-append-many',
      text: `WITH input AS (
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[]) AS i(stream_name, expected, next)),
       locked AS (
         SELECT s.stream_name FROM es_streams s JOIN input i USING (stream_name)
         WHERE i.expected > 0 ORDER BY s.stream_name FOR UPDATE OF s),
       updated AS (
         UPDATE es_streams s SET stream_version = i.next FROM input i
         WHERE s.stream_name = i.stream_name AND i.expected > 0 AND s.stream_version = i.expected
           AND s.stream_name IN (SELECT stream_name FROM locked)
         RETURNING s.stream_name),
       created AS (
         INSERT INTO es_streams (stream_name, stream_version)
         SELECT stream_name, next FROM input WHERE expected = 0 ORDER BY stream_name
         ON CONFLICT DO NOTHING RETURNING stream_name),
       moved AS (SELECT stream_name FROM updated UNION ALL SELECT stream_name FROM created),
       appended AS (
         INSERT INTO es_events (stream_name, stream_position, event_id, event_type, data)
         SELECT * FROM unnest($4::text[], $5::bigint[], $6::uuid[], $7::text[], $8::jsonb[]) AS e(stream_name, pos, id, type, data)
         WHERE e.stream_name IN (SELECT stream_name FROM moved)
         RETURNING 1),
       published AS (${outboxInsertSql(9, 'm.stream IN (SELECT stream_name FROM moved)', true)} RETURNING 1)
       SELECT stream_name FROM moved`,
      values: [
        work.map((a) => a.streamName),
        work.map((a) => a.expectedVersion),
        work.map((a) => a.expectedVersion + a.events.length),
        events.map((e) => e.stream),
        events.map((e) => e.position),
        events.map((e) => e.id),
        events.map((e) => e.type),
        events.map((e) => e.data),
        ...outboxParams(outbox.map((o) => o.m)),
        outbox.map((o) => o.stream),
      ],
    });
    if (outbox.length) outboxWritten(tx);
    const moved = new Set<string>(rows.map((r: { stream_name: string }) => r.stream_name));
    return moved;
  }

  /** A stream's events in order; `afterVersion` skips those a caller already folded. */
  async readStream<E extends DomainEvent>(
    streamName: string,
    db: Queryable = this.pool,
    afterVersion = 0,
  ): Promise<RecordedEvent<E>[]> {
    const { rows } = await db.query({
      name: 'es-read-stream',
      text: `SELECT event_id, stream_name, stream_position, global_position, transaction_id::text, event_type, data, metadata, recorded_at
       FROM es_events WHERE stream_name = $1 AND stream_position > $2 ORDER BY stream_position`,
      values: [streamName, afterVersion],
    });
    return rows.map((r: EventRow) => toRecorded<E>(r));
  }

  async aggregateStream<S, E extends DomainEvent>(
    streamName: string,
    decider: Pick<Decider<S, unknown, E>, 'evolve' | 'initialState'>,
    db: Queryable = this.pool,
  ): Promise<{ state: S; version: number }> {
    const events = await this.readStream<E>(streamName, db);
    const state = events.reduce(
      (s, e) => decider.evolve(s, { type: e.type, data: e.data } as E),
      decider.initialState(),
    );
    return { state, version: events.length === 0 ? 0 : events[events.length - 1]!.streamPosition };
  }

  /**
   * Events after `after` in commit-safe global order, stopping below the oldest running
   * transaction so that a transaction committing late is read later, never skipped.
   */
  async readAll(after: GlobalPosition, limit = 500, db: Queryable = this.pool): Promise<RecordedEvent[]> {
    const { rows } = await db.query(
      `SELECT event_id, stream_name, stream_position, global_position, transaction_id::text, event_type, data, metadata, recorded_at
       FROM es_events
       WHERE (transaction_id, global_position) > ($1::xid8, $2::bigint)
         AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
       ORDER BY transaction_id, global_position
       LIMIT $3`,
      [after.transactionId, after.position, limit],
    );
    return rows.map((r: EventRow) => toRecorded(r));
  }
}
