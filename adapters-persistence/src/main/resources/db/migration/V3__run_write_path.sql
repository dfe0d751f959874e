-- The run writer inserts thousands of runs a second: an identity that reserves 32 values at a time writes its
-- state (a commit of its own) 32 times as often as one that reserves 1000. A crash skips what was reserved,
-- which only leaves a gap in an ordering key.
ALTER TABLE workflow_run ALTER COLUMN seq SET CACHE 1000;
-- Status alone picks a third of all runs and is never searched without the app: the logs filter by app and
-- status, newest first.
DROP INDEX workflow_run_status;
CREATE INDEX workflow_run_app_status_created ON workflow_run (app_id, status, created_at DESC, seq DESC);
