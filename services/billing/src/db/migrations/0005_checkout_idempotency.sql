-- The local provider's answer to an Idempotency-Key (scoped to its caller): the same key gives
-- back the same checkout session, as Stripe's API does.
ALTER TABLE local_checkout_sessions ADD COLUMN idempotency_key text UNIQUE;
