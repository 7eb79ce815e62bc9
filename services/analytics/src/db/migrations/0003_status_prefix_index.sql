-- status:value searches are prefix matches (status:cancel finds canceled); a pattern-ops B-tree
-- answers them, and lets a count that stops early read only the matching entries.
CREATE INDEX admin_users_status_prefix ON admin_users (subscription_status text_pattern_ops);
