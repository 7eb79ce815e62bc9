-- Chargebacks (Stripe's charge.dispute.* events), one row per dispute with its latest status, for
-- the operator. The take-back itself marks the payment refunded (payments.refunded).
CREATE TABLE disputes (
  dispute_id   text PRIMARY KEY,
  payment_id   text NOT NULL REFERENCES payments (payment_id),
  status       text NOT NULL,
  reason       text NOT NULL,
  amount_cents integer NOT NULL,
  currency     text NOT NULL,
  opened_at    timestamptz NOT NULL,
  updated_at   timestamptz NOT NULL
);
CREATE INDEX disputes_payment ON disputes (payment_id);
