-- Which payment paid each subscription period (the invoice's payment intent and charge), the plan
-- it granted, and the dispute that took it back: a chargeback of a plan's payment reverses that
-- period's grant once (docs/decisions/0601-billing.md §17). Periods paid before this migration
-- have no payment recorded, so a dispute of them is recorded but reverses nothing.
ALTER TABLE subscription_periods
  ADD COLUMN invoice_id          text NOT NULL DEFAULT '',
  ADD COLUMN payment_intent_id   text NOT NULL DEFAULT '',
  ADD COLUMN charge_id           text NOT NULL DEFAULT '',
  ADD COLUMN plan                text NOT NULL DEFAULT '',
  ADD COLUMN billing_period      text NOT NULL DEFAULT '',
  ADD COLUMN reversed_by_dispute text NOT NULL DEFAULT '';
CREATE INDEX subscription_periods_payment_intent ON subscription_periods (payment_intent_id) WHERE payment_intent_id <> '';
CREATE INDEX subscription_periods_charge ON subscription_periods (charge_id) WHERE charge_id <> '';

-- A plan's dispute names its invoice, not a payment row.
ALTER TABLE disputes ALTER COLUMN payment_id DROP NOT NULL;
ALTER TABLE disputes ADD COLUMN invoice_id text NOT NULL DEFAULT '';
