-- Payment receipts (issue 29). Billing learns each user's address from identity's events
-- (UserRegistered, UserProfileChanged; removed on UserDeleted), and mails a receipt in the
-- transaction that records the payment, through its own mail outbox (ADR 0402's pattern).
CREATE TABLE user_contacts (
  user_id    text PRIMARY KEY,
  email      text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- E-mail waiting to be sent (services/platform/src/mail/mail-outbox.ts), as identity's.
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
