-- Read models of the admin dashboard, built only from other services' events (replayable: drop
-- the rows and the inbox, consume again). A user row may be created by any event about the user;
-- it is shown once its registration has arrived (created_at set), whatever order topics arrive in.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE admin_users (
  id                      text PRIMARY KEY,
  email                   text NOT NULL DEFAULT '',
  first_name              text NOT NULL DEFAULT '',
  last_name               text NOT NULL DEFAULT '',
  -- Display name, kept by the trigger below: first and last, else first, else the e-mail's local part.
  name                    text NOT NULL DEFAULT '',
  picture                 text NOT NULL DEFAULT '',
  token_balance           bigint NOT NULL DEFAULT 0,
  -- The ledger stream version the balance is from: a late, older event never overwrites a newer balance.
  balance_version         bigint NOT NULL DEFAULT -1,
  subscription_status     text NOT NULL DEFAULT '',
  subscription_plan       text NOT NULL DEFAULT 'none',
  subscription_period_end timestamptz,
  created_at              timestamptz,
  updated_at              timestamptz NOT NULL,
  total_images_processed  bigint NOT NULL DEFAULT 0,
  last_active             timestamptz,
  first_paid_at           timestamptz,
  last_paid_at            timestamptz,
  -- What free-text search matches, lowercased (trigger below), under a trigram index.
  search_text             text NOT NULL DEFAULT '',
  date_text               text NOT NULL DEFAULT ''
);

-- Keeps name, search_text and date_text in step with the row, so every writer (live or replay) agrees.
CREATE FUNCTION admin_users_derive() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.name := CASE
    WHEN btrim(NEW.first_name) <> '' AND btrim(NEW.last_name) <> '' THEN btrim(NEW.first_name) || ' ' || btrim(NEW.last_name)
    WHEN btrim(NEW.first_name) <> '' THEN btrim(NEW.first_name)
    ELSE split_part(NEW.email, '@', 1)
  END;
  NEW.date_text := CASE WHEN NEW.created_at IS NULL THEN '' ELSE lower(to_char(NEW.created_at AT TIME ZONE 'UTC',
    'YYYY-MM-DD FMMM/FMDD/YYYY FMDD/FMMM/YYYY FMmonth FMDD YYYY mon FMDD YYYY')) END;
  NEW.search_text := lower(concat_ws(' ', NEW.email, NEW.name, NEW.subscription_plan,
    CASE WHEN NEW.subscription_plan = 'unlimited' AND NEW.subscription_status = 'active' THEN 'unlimited' END,
    NEW.token_balance::text, NEW.date_text, NULLIF(NEW.subscription_status, '')));
  RETURN NEW;
END $$;

CREATE TRIGGER admin_users_derive BEFORE INSERT OR UPDATE ON admin_users
  FOR EACH ROW EXECUTE FUNCTION admin_users_derive();

-- Substring search (LIKE '%x%') over a million rows: trigram GIN indexes on what is searched.
CREATE INDEX admin_users_search_trgm ON admin_users USING gin (search_text gin_trgm_ops);
CREATE INDEX admin_users_email_trgm ON admin_users USING gin (email gin_trgm_ops);
CREATE INDEX admin_users_name_trgm ON admin_users USING gin (lower(name) gin_trgm_ops);
CREATE INDEX admin_users_date_trgm ON admin_users USING gin (date_text gin_trgm_ops);
-- The table's order (newest first), the signup window and the day counts.
CREATE INDEX admin_users_created ON admin_users (created_at DESC, id);
CREATE INDEX admin_users_balance ON admin_users (token_balance);
CREATE INDEX admin_users_plan ON admin_users (subscription_plan, created_at DESC);
CREATE INDEX admin_users_email ON admin_users (lower(email));
CREATE INDEX admin_users_first_paid ON admin_users (first_paid_at) WHERE first_paid_at IS NOT NULL;
CREATE INDEX admin_users_last_paid ON admin_users (last_paid_at) WHERE last_paid_at IS NOT NULL;

-- Users deleted in identity: later events about them (they keep arriving from other topics) create no row.
-- Only the id is kept, never personal data.
CREATE TABLE deleted_users (id text PRIMARY KEY, deleted_at timestamptz NOT NULL);

-- One-time guest purchases (billing's PaymentSucceeded without a user).
CREATE TABLE anonymous_purchases (
  payment_id   text PRIMARY KEY,
  amount_cents bigint NOT NULL,
  currency     text NOT NULL,
  occurred_at  timestamptz NOT NULL
);
CREATE INDEX anonymous_purchases_at ON anonymous_purchases (occurred_at);

-- The newest event absorbed per topic: the projection lag is now minus the newest of these.
CREATE TABLE projection_positions (
  topic           text PRIMARY KEY,
  newest_event_at timestamptz NOT NULL,
  events          bigint NOT NULL DEFAULT 0
);

-- Audit of operators' token adjustments, from the ledger's TokensAdjusted: who, whom, how much
-- (what was actually applied: a deduct stops at 0). The e-mail is erased when the user is deleted.
CREATE TABLE token_adjustments (
  event_id    uuid PRIMARY KEY,
  operator_id text NOT NULL,
  user_id     text NOT NULL,
  user_email  text,
  direction   text NOT NULL,
  amount      bigint NOT NULL,
  balance_after bigint NOT NULL,
  occurred_at timestamptz NOT NULL
);
CREATE INDEX token_adjustments_user ON token_adjustments (user_id);
