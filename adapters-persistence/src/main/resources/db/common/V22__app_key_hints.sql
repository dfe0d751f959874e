-- An app's keys are listed for its operator: each by a hint (its last four characters) and when it was last used.
-- Keys issued before this keep no hint.
ALTER TABLE app_key ADD COLUMN hint VARCHAR(16);
ALTER TABLE app_key ADD COLUMN last_used_at BIGINT;
