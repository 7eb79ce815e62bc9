-- UNIQUE (user_id, stream_position) already serves "newest first" (a btree reads backwards);
-- the extra index only cost every spend another index write.
DROP INDEX account_transactions_newest;
