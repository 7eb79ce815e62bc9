-- Images (a user's, or a guest's try), their generation jobs, and what the service knows of
-- each user's plan (from identity's UserPlanChanged; never read from identity's tables).
CREATE TABLE images (
  image_id uuid PRIMARY KEY,
  -- The owner; NULL for a guest's try until a signed-in user claims it.
  user_id text,
  -- A guest's e-mail address; NULL for a user's image.
  guest_email text,
  enhancement_type text NOT NULL,
  options jsonb NOT NULL,
  original_key text NOT NULL,
  original_type text NOT NULL,
  original_bytes bigint NOT NULL,
  status text NOT NULL CHECK (status IN ('processing', 'completed', 'failed')),
  is_locked boolean NOT NULL,
  -- Tokens the enhancement spend took (given back once if the job fails).
  charged_tokens bigint NOT NULL DEFAULT 0,
  -- charged | tokens | payment | claim: how it came to be unlocked.
  unlocked_via text,
  payment_id text,
  result_key text,
  result_type text,
  preview_key text,
  width int,
  height int,
  failure_code text,
  failure_reason text,
  -- A failed job's refund: 'due' until the ledger has confirmed it, then 'done'.
  refund text CHECK (refund IN ('due', 'done')),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX images_gallery ON images (user_id, created_at DESC, image_id DESC) WHERE user_id IS NOT NULL;
CREATE INDEX images_refund_due ON images (updated_at) WHERE refund = 'due';

-- One job per image. A worker claims it with a conditional UPDATE on `version` and holds it
-- under a lease; a lease that runs out (its worker died) lets another worker claim it again.
CREATE TABLE generation_jobs (
  image_id uuid PRIMARY KEY REFERENCES images (image_id) ON DELETE CASCADE,
  status text NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
  attempts int NOT NULL DEFAULT 0,
  worker text,
  lease_expires_at timestamptz,
  not_before timestamptz NOT NULL,
  last_error text,
  version bigint NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL
);
-- What the workers' sweep looks for: queued jobs that are due, running ones whose lease ran out.
CREATE INDEX generation_jobs_queued ON generation_jobs (not_before) WHERE status = 'queued';
CREATE INDEX generation_jobs_running ON generation_jobs (lease_expires_at) WHERE status = 'running';

CREATE TABLE user_plans (
  user_id text PRIMARY KEY,
  subscription_plan text NOT NULL,
  subscription_status text NOT NULL,
  updated_at timestamptz NOT NULL
);
