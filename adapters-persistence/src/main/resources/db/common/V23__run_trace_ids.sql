-- A run traced with OpenTelemetry keeps the id of its trace (32 hex digits), so that the operator's view of the run
-- leads to its spans. Runs that were not traced keep none.
ALTER TABLE workflow_run ADD COLUMN trace_id VARCHAR(32);
