-- The identity service's own tables are added by the issue that builds the service.
-- This first migration records the schema's owner so operators can tell databases apart.
CREATE TABLE service_info (service text PRIMARY KEY, created_at timestamptz NOT NULL DEFAULT now());
INSERT INTO service_info (service) VALUES ('identity');
