-- Profile and plan fields, external identities, and revoked access tokens.
ALTER TABLE users
  ADD COLUMN first_name              text NOT NULL DEFAULT '',
  ADD COLUMN last_name               text NOT NULL DEFAULT '',
  ADD COLUMN avatar_url              text NOT NULL DEFAULT '',
  ADD COLUMN stripe_customer_id      text NOT NULL DEFAULT '',
  ADD COLUMN stripe_subscription_id  text NOT NULL DEFAULT '',
  ADD COLUMN subscription_plan       text NOT NULL DEFAULT 'none',
  ADD COLUMN subscription_status     text NOT NULL DEFAULT '',
  ADD COLUMN subscription_period_end timestamptz,
  -- occurred_at of the last subscription event applied; older events change nothing.
  ADD COLUMN plan_as_of              timestamptz;

-- Google and Supabase identities linked to an account (one account may have both).
CREATE TABLE external_identities (
  provider   text NOT NULL CHECK (provider IN ('google', 'supabase')),
  subject    text NOT NULL,
  user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, subject)
);
CREATE INDEX external_identities_user ON external_identities (user_id);

-- Access tokens revoked before their expiry (logout), by token id; rows past expiry are purged.
CREATE TABLE revoked_tokens (
  jti        uuid PRIMARY KEY,
  user_id    uuid NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX revoked_tokens_expiry ON revoked_tokens (expires_at);
