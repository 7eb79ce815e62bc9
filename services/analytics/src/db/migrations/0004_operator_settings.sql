-- Operator settings (the /settings page): service keys and payment configuration. A secret is
-- kept only as AES-256-GCM ciphertext (settings key: SETTINGS_ENCRYPTION_KEY); a non-secret value
-- (price ids, the publishable key) in clear. Not a read model: analytics owns these facts and
-- publishes each change as SettingsChanged.
CREATE TABLE operator_settings (
  key         text PRIMARY KEY,
  secret      boolean NOT NULL,
  value       text,
  sealed      bytea,
  updated_at  timestamptz NOT NULL,
  updated_by  text NOT NULL,
  CHECK ((secret AND sealed IS NOT NULL AND value IS NULL) OR (NOT secret AND value IS NOT NULL AND sealed IS NULL))
);

-- Who changed or tested which key when; never a value.
CREATE TABLE operator_settings_audit (
  id          bigserial PRIMARY KEY,
  operator_id text NOT NULL,
  key         text NOT NULL,
  action      text NOT NULL CHECK (action IN ('set', 'cleared', 'tested')),
  occurred_at timestamptz NOT NULL
);
CREATE INDEX operator_settings_audit_at ON operator_settings_audit (occurred_at);

-- The newest connection test of each service; a key's status compares it with the key's last change.
CREATE TABLE operator_settings_tests (
  service    text PRIMARY KEY,
  ok         boolean NOT NULL,
  message    text NOT NULL,
  tested_at  timestamptz NOT NULL
);

-- The version of the settings aggregate: SettingsChanged carries it, so a consumer keeps the newest.
CREATE TABLE operator_settings_version (
  id      boolean PRIMARY KEY DEFAULT true CHECK (id),
  version bigint NOT NULL
);
INSERT INTO operator_settings_version (version) VALUES (0);
