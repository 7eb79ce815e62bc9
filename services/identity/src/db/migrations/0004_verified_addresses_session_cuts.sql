-- Whether someone proved control of the account's address: a verified Google or Supabase
-- sign-in. Password sign-up never does, so every existing account starts unverified; the first
-- verified external sign-in for the address takes the account over (clears the password, unlinks
-- the other identities, ends the earlier sessions).
ALTER TABLE users
  ADD COLUMN email_verified       boolean NOT NULL DEFAULT false,
  -- Sessions issued before this instant are over (password change, admin password update at
  -- start, takeover). Each access token carries the value it was issued under; NULL: never cut.
  ADD COLUMN sessions_valid_after timestamptz;
