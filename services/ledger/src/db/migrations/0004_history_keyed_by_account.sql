-- The history is read and written per account in stream order: that is its key. The random
-- event-id key cost every spend a second, badly localised index write.
ALTER TABLE account_transactions DROP CONSTRAINT account_transactions_pkey;
ALTER TABLE account_transactions DROP CONSTRAINT account_transactions_user_id_stream_position_key;
ALTER TABLE account_transactions ADD PRIMARY KEY (user_id, stream_position);
