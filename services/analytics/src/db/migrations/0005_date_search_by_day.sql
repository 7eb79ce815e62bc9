-- Date-text searches ("march", "2024-03", "3/14") matched 30,000-100,000 rows lying together in
-- sign-up order, which neither the trigram index (gather and sort) nor the newest-first walk
-- answers in under 100 ms. The date text depends only on the UTC sign-up day, so such a search is
-- turned into the days it matches (a few thousand days to test, not a million rows), merged into
-- sign-up time ranges read newest-first from admin_users_created. Free text also matches the
-- other fields: those live in search_rest, under its own trigram index.
CREATE FUNCTION admin_date_text(day timestamp) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT lower(to_char(day, 'YYYY-MM-DD FMMM/FMDD/YYYY FMDD/FMMM/YYYY FMmonth FMDD YYYY mon FMDD YYYY'))
$$;

ALTER TABLE admin_users ADD COLUMN search_rest text NOT NULL DEFAULT '';

CREATE OR REPLACE FUNCTION admin_users_derive() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.name := CASE
    WHEN btrim(NEW.first_name) <> '' AND btrim(NEW.last_name) <> '' THEN btrim(NEW.first_name) || ' ' || btrim(NEW.last_name)
    WHEN btrim(NEW.first_name) <> '' THEN btrim(NEW.first_name)
    ELSE split_part(NEW.email, '@', 1)
  END;
  NEW.date_text := CASE WHEN NEW.created_at IS NULL THEN '' ELSE admin_date_text(NEW.created_at AT TIME ZONE 'UTC') END;
  -- Everything free text matches except the date text (searched by day instead).
  NEW.search_rest := lower(concat_ws(' ', NEW.email, NEW.name, NEW.subscription_plan,
    CASE WHEN NEW.subscription_plan = 'unlimited' AND NEW.subscription_status = 'active' THEN 'unlimited' END,
    NEW.token_balance::text, NULLIF(NEW.subscription_status, '')));
  NEW.search_text := concat_ws(' ', NULLIF(NEW.search_rest, ''), NULLIF(NEW.date_text, ''));
  RETURN NEW;
END $$;

-- Fill the new column for existing rows (the trigger derives it).
UPDATE admin_users SET search_rest = '' WHERE search_rest = '';

CREATE INDEX admin_users_search_rest_trgm ON admin_users USING gin (search_rest gin_trgm_ops);
