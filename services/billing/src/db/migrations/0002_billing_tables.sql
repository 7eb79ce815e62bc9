-- Billing's own records: the payment provider's customers, payments, subscriptions and the paid
-- periods, the webhook events already handled, and the local payment provider's state.

-- One payment-provider customer per user, reused by every checkout.
CREATE TABLE customers (
  user_id     text PRIMARY KEY,
  customer_id text NOT NULL UNIQUE,
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- Each webhook event id once: inserted in the same transaction as the event's effects.
CREATE TABLE webhook_events (
  event_id    text PRIMARY KEY,
  event_type  text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);

-- Checkouts billing created, so a guest's payment status can be answered before it is paid.
CREATE TABLE checkout_sessions (
  session_id     text PRIMARY KEY,
  kind           text NOT NULL,
  user_id        text,
  enhancement_id text,
  image_id       text,
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX checkout_sessions_enhancement ON checkout_sessions (enhancement_id) WHERE enhancement_id IS NOT NULL;

CREATE TABLE payments (
  payment_id        text PRIMARY KEY,
  payment_intent_id text UNIQUE,
  kind              text NOT NULL,
  user_id           text,
  pack_id           text NOT NULL DEFAULT '',
  pack_name         text NOT NULL DEFAULT '',
  tokens            integer NOT NULL DEFAULT 0,
  image_id          text NOT NULL DEFAULT '',
  enhancement_id    text NOT NULL DEFAULT '',
  amount_cents      integer NOT NULL,
  currency          text NOT NULL,
  refunded          boolean NOT NULL DEFAULT false,
  paid_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payments_enhancement ON payments (enhancement_id) WHERE enhancement_id <> '';

-- A full refund whose payment had not been reported yet (events arrive in any order).
CREATE TABLE pending_refunds (
  payment_intent_id text PRIMARY KEY,
  amount_refunded   integer NOT NULL,
  created_at        timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE subscriptions (
  subscription_id      text PRIMARY KEY,
  user_id              text NOT NULL,
  customer_id          text NOT NULL DEFAULT '',
  plan                 text NOT NULL,
  billing_period       text NOT NULL,
  status               text NOT NULL,
  cancel_at_period_end boolean NOT NULL DEFAULT false,
  current_period_start timestamptz,
  current_period_end   timestamptz,
  as_of                timestamptz NOT NULL,
  updated_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX subscriptions_user ON subscriptions (user_id);

-- Each paid period once: its plan's tokens are granted once.
CREATE TABLE subscription_periods (
  subscription_id text NOT NULL,
  period_start    timestamptz NOT NULL,
  period_end      timestamptz NOT NULL,
  PRIMARY KEY (subscription_id, period_start)
);

-- The local payment provider (no keys): its checkout sessions, subscriptions and portal sessions.
CREATE TABLE local_checkout_sessions (
  session_id      text PRIMARY KEY,
  mode            text NOT NULL,
  status          text NOT NULL DEFAULT 'open',
  customer_id     text NOT NULL DEFAULT '',
  customer_email  text NOT NULL DEFAULT '',
  price_id        text NOT NULL DEFAULT '',
  product_name    text NOT NULL,
  amount_cents    integer NOT NULL,
  discount_cents  integer NOT NULL DEFAULT 0,
  currency        text NOT NULL,
  metadata        jsonb NOT NULL,
  success_url     text NOT NULL,
  cancel_url      text NOT NULL,
  csrf_token      text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE local_subscriptions (
  subscription_id      text PRIMARY KEY,
  customer_id          text NOT NULL,
  price_id             text NOT NULL,
  status               text NOT NULL,
  cancel_at_period_end boolean NOT NULL DEFAULT false,
  current_period_start timestamptz NOT NULL,
  current_period_end   timestamptz NOT NULL,
  metadata             jsonb NOT NULL
);

CREATE TABLE local_portal_sessions (
  portal_session_id text PRIMARY KEY,
  customer_id       text NOT NULL,
  return_url        text NOT NULL,
  csrf_token        text NOT NULL,
  created_at        timestamptz NOT NULL DEFAULT now()
);
