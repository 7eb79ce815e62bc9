-- Price ids operators set on the settings page (SettingsChanged from analytics), by setting key.
-- Kept here so a restart, and every replica, sells under them; `version` is the settings
-- aggregate's, so a late, older event never undoes a newer one.
CREATE TABLE price_overrides (
  setting_key text PRIMARY KEY,
  price_id    text,
  version     bigint NOT NULL,
  updated_at  timestamptz NOT NULL
);
