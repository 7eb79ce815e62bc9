-- Files to delete, recorded in the transaction that deletes their rows (a closed account's
-- images): the deletes themselves run after the commit, never inside a transaction, and a row
-- here is removed only once its file is gone, so a crash or an unreachable store loses none
-- of them; the blob-deletion sweeper tries again.
CREATE TABLE blob_deletions (
  id bigserial PRIMARY KEY,
  -- A single key, or a folder (ending in '/') whose every file goes.
  blob_key text NOT NULL,
  is_prefix boolean NOT NULL,
  attempts int NOT NULL DEFAULT 0,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- When it may be tried next (back-off after a failure).
  due_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX blob_deletions_due ON blob_deletions (due_at);
