-- Accounts. The identity issue extends this table (profile, plan fields, external identities).
CREATE TABLE users (
  id            uuid PRIMARY KEY,
  email         text NOT NULL,
  password_hash text,
  role          text NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'admin')),
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
-- E-mail addresses are compared case-insensitively.
CREATE UNIQUE INDEX users_email_unique ON users (lower(email));
