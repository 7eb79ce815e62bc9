-- Exports of a person's data (ADR 0403), what happens after: a request that keeps failing is given
-- up after a bounded number of claims (the person is told and may ask again), and an archive is
-- deleted from the file store once its link has expired (archive_swept_at records it).
ALTER TABLE data_exports
  ADD COLUMN gave_up_at timestamptz,
  ADD COLUMN archive_swept_at timestamptz;
CREATE INDEX data_exports_to_sweep ON data_exports (completed_at)
  WHERE completed_at IS NOT NULL AND archive_swept_at IS NULL;
