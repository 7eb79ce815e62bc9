-- The operator settings the image service uses, from analytics' SettingsChanged: today the
-- generative provider's API key (`{product}_api_key`), kept sealed exactly as it arrived
-- (AES-256-GCM under SETTINGS_ENCRYPTION_KEY), so no plaintext key is at rest here. Kept so a
-- restarted worker, and every worker sharing this database, has it though the topic's retention
-- may drop the event; `version` is the settings aggregate's, so a late, older event never undoes
-- a newer one. `sealed` is NULL once the operator cleared the setting.
CREATE TABLE operator_settings (
  setting_key text PRIMARY KEY,
  sealed      bytea,
  version     bigint NOT NULL,
  updated_at  timestamptz NOT NULL
);
