-- Every append writes these tables; each index costs every write. Event ids are v4 UUIDs made
-- by the writer, so a unique index on them guarded against nothing real while being the most
-- expensive index to maintain (random keys). The outbox is only ever read in commit order,
-- so that order is its primary key and the separate sequence key goes.
ALTER TABLE es_events DROP CONSTRAINT es_events_event_id_key;
ALTER TABLE outbox DROP CONSTRAINT outbox_pkey;
DROP INDEX outbox_global_order;
ALTER TABLE outbox ADD PRIMARY KEY (transaction_id, position);
