-- A guest's client (a keyed hash of its IP address or IPv6 /64, made by the gateway; never the
-- address), so the gateway can limit a guest's unfinished tries per client (ADR 0105). NULL for
-- a user's image, and forgotten once a kept try passes the guest retention.
ALTER TABLE images ADD COLUMN guest_client text;
-- What the limit on unfinished tries counts: a guest's tries still processing.
CREATE INDEX images_guest_processing_email ON images (guest_email) WHERE status = 'processing' AND user_id IS NULL;
CREATE INDEX images_guest_processing_client ON images (guest_client) WHERE status = 'processing' AND user_id IS NULL;
-- What the retention sweep looks for: unclaimed guest tries, oldest first.
CREATE INDEX images_guest_created ON images (created_at) WHERE user_id IS NULL AND guest_email IS NOT NULL;
