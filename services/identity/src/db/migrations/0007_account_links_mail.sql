-- Accounts people look after themselves (ADR 0402).
--
-- Links sent by e-mail: verify an address (24 hours), reset a password (1 hour), confirm a new
-- address (24 hours). The link carries a token signed with the service's key naming this row;
-- the row makes it single-use (used_at) and says where it was sent.
CREATE TABLE account_links (
  id         uuid PRIMARY KEY,
  user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  purpose    text NOT NULL CHECK (purpose IN ('verify-email', 'reset-password', 'change-email')),
  -- The address the link was sent to: the account's, or the new one of an address change.
  email      text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at    timestamptz
);
CREATE INDEX account_links_user ON account_links (user_id, purpose);

-- E-mail waiting to be sent (services/platform/src/mail/mail-outbox.ts): written in the
-- transaction that causes it, deleted once the mail server accepted it.
CREATE TABLE mail_outbox (
  id              uuid PRIMARY KEY,
  kind            text NOT NULL,
  recipient       text NOT NULL,
  params          jsonb NOT NULL DEFAULT '{}',
  created_at      timestamptz NOT NULL DEFAULT now(),
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_error      text,
  failed_at       timestamptz
);
CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE failed_at IS NULL;
