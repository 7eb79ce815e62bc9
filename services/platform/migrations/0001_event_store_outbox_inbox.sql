-- The platform's tables, present in every service database.

-- Event store: one row per event; a stream's events are numbered 1..n.
CREATE TABLE es_streams (
  stream_name    text PRIMARY KEY,
  stream_version bigint NOT NULL CHECK (stream_version >= 0)
);

CREATE TABLE es_events (
  global_position bigserial NOT NULL,
  -- The writing transaction: readers of the global order stop below the oldest
  -- transaction still running, so an event that commits late is never skipped.
  transaction_id  xid8 NOT NULL DEFAULT pg_current_xact_id(),
  stream_name     text NOT NULL,
  stream_position bigint NOT NULL,
  event_id        uuid NOT NULL UNIQUE,
  event_type      text NOT NULL,
  data            jsonb NOT NULL,
  metadata        jsonb NOT NULL DEFAULT '{}'::jsonb,
  recorded_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (stream_name, stream_position)
);
CREATE INDEX es_events_global_order ON es_events (transaction_id, global_position);

-- Transactional outbox: written in the same transaction as the state, published by the relay.
CREATE TABLE outbox (
  position       bigserial PRIMARY KEY,
  transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
  topic          text NOT NULL,
  message_key    text NOT NULL,
  event_id       uuid NOT NULL,
  event_type     text NOT NULL,
  envelope       bytea NOT NULL,
  headers        jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX outbox_global_order ON outbox (transaction_id, position);

-- How far each reader of a global order has come.
CREATE TABLE checkpoints (
  reader         text PRIMARY KEY,
  transaction_id xid8 NOT NULL,
  position       bigint NOT NULL,
  updated_at     timestamptz NOT NULL DEFAULT now()
);

-- Consumer inbox: an event id handled by a consumer is never handled by it again.
CREATE TABLE inbox (
  consumer   text NOT NULL,
  event_id   uuid NOT NULL,
  handled_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (consumer, event_id)
);
