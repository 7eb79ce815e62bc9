-- Exports of a person's data (ADR 0403). A request is a row until its archive is made and its
-- e-mail queued: a worker claims a due row for a while (due_at moves on by the lease), so a
-- worker that dies leaves it due again later, and completed_at makes it done exactly once.
CREATE TABLE data_exports (
  id           uuid PRIMARY KEY,
  user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  requested_at timestamptz NOT NULL,
  due_at       timestamptz NOT NULL,
  attempts     integer NOT NULL DEFAULT 0,
  completed_at timestamptz
);
CREATE INDEX data_exports_due ON data_exports (due_at) WHERE completed_at IS NULL;
-- One export being made per person at a time: asking again answers the same request.
CREATE UNIQUE INDEX data_exports_open ON data_exports (user_id) WHERE completed_at IS NULL;
