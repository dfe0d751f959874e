-- H2's V3 makes workflow_run's identity reserve 1000 values at a time, since each reservation is a commit of its
-- own there. A PostgreSQL sequence's next value costs no commit, and its cache would be per connection: numbers
-- would then not follow the order runs are written in, which the logs' search totals count on. Left at 1.
-- Status alone picks a third of all runs and is never searched without the app: the logs filter by app and
-- status, newest first.
DROP INDEX workflow_run_status;
CREATE INDEX workflow_run_app_status_created ON workflow_run (app_id, status, created_at DESC, seq DESC);
