-- Chargebacks (billing's PaymentDisputed), one row per dispute with its latest status, for the
-- operator's overview. A replayed or late event never moves a status back (updated_at guard).
CREATE TABLE payment_disputes (
  dispute_id        text PRIMARY KEY,
  payment_id        text NOT NULL,
  user_id           text NOT NULL,
  kind              text NOT NULL,
  status            text NOT NULL,
  reason            text NOT NULL,
  amount_cents      bigint NOT NULL,
  currency          text NOT NULL,
  tokens_taken_back bigint NOT NULL,
  opened_at         timestamptz NOT NULL,
  updated_at        timestamptz NOT NULL
);
CREATE INDEX payment_disputes_status ON payment_disputes (status);
