-- Supabase access tokens carry no trustworthy proof of a confirmed address (a signed-in user can
-- set user_metadata.email_verified), so an address counts as verified only through Google now
-- (ADR 0401). Accounts the earlier rule marked verified on a Supabase token alone go back to
-- unverified: otherwise an account made that way for someone else's address would still be
-- joined, later, by the address's real owner signing in with Google.
UPDATE users SET email_verified = false
WHERE email_verified
  AND EXISTS (SELECT 1 FROM external_identities e WHERE e.user_id = users.id AND e.provider = 'supabase')
  AND NOT EXISTS (SELECT 1 FROM external_identities e WHERE e.user_id = users.id AND e.provider = 'google');
