-- The sign-up consent (privacy policy, terms, being at least 18) recorded with the account: when it
-- was given and which version of the text the person was shown (ADR 0804). Both NULL for accounts
-- made before this, and for a client that sent no version (the /api contract's payload has none).
ALTER TABLE users
  ADD COLUMN consented_at    timestamptz,
  ADD COLUMN consent_version text,
  ADD CONSTRAINT users_consent_whole CHECK ((consented_at IS NULL) = (consent_version IS NULL));
