-- A user's generation is a reservation that cannot be lost (docs/decisions/0104-charges-and-refunds.md):
-- the image and its job are written first, the job 'charging'; then the ledger spend keyed by the
-- image id; then the job is queued. A crash anywhere between leaves a 'charging' job, which the
-- image service's charge sweeper settles (the spend again, idempotent, then queued), so every
-- charge ends in a job and every job that ends failed owes its refund.
ALTER TABLE generation_jobs DROP CONSTRAINT generation_jobs_status_check;
ALTER TABLE generation_jobs ADD CONSTRAINT generation_jobs_status_check
  CHECK (status IN ('charging', 'queued', 'running', 'succeeded', 'failed'));
CREATE INDEX generation_jobs_charging ON generation_jobs (updated_at) WHERE status = 'charging';

-- A refund the ledger refuses for good (a closed account, say) ends 'not_possible' with the
-- reason, instead of being tried forever; the operator sees it in the admin API.
ALTER TABLE images DROP CONSTRAINT images_refund_check;
ALTER TABLE images ADD CONSTRAINT images_refund_check CHECK (refund IN ('due', 'done', 'not_possible'));
ALTER TABLE images ADD COLUMN refund_note text;
CREATE INDEX images_refund_not_possible ON images (updated_at) WHERE refund = 'not_possible';

-- An unlock with tokens (the owner's, or a signed-in user claiming a guest's try) is recorded on
-- the image before the ledger's spend, and cleared when the image is unlocked (or the spend is
-- refused): a crash in between leaves it pending, and the charge sweeper finishes it, so tokens
-- taken for an unlock always end in an unlocked image.
ALTER TABLE images ADD COLUMN unlock_pending_user text;
ALTER TABLE images ADD COLUMN unlock_pending_at timestamptz;
CREATE INDEX images_unlock_pending ON images (unlock_pending_at) WHERE unlock_pending_at IS NOT NULL;
