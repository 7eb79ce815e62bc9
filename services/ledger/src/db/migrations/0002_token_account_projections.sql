-- Read models of token accounts, written in the same transaction as the events
-- (inline projections) and rebuildable from the event store at any time.
CREATE TABLE account_balances (
  user_id    text PRIMARY KEY,
  balance    bigint NOT NULL CHECK (balance >= 0),
  version    bigint NOT NULL,
  closed     boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL
);

CREATE TABLE account_transactions (
  event_id        uuid PRIMARY KEY,
  user_id         text NOT NULL,
  stream_position bigint NOT NULL,
  description     text NOT NULL,
  amount          bigint NOT NULL,
  balance_after   bigint NOT NULL CHECK (balance_after >= 0),
  created_at      timestamptz NOT NULL,
  UNIQUE (user_id, stream_position)
);
CREATE INDEX account_transactions_newest ON account_transactions (user_id, stream_position DESC);
