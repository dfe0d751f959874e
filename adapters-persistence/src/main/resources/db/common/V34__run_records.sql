-- A run that ended before anything of it was written is kept as one record: its row holds its node executions (a
-- JSON array, the node_execution columns of each) and the events its stream showed (their data lines joined by
-- newlines, numbered from events_from). One insert into workflow_run and its indexes replaces a row and an index
-- entry per node execution and a row of events: a kept run's cost to the writer is mostly its B-tree inserts.
-- Runs written as they went (streamed, paused, or held past the hold) keep node_execution and run_event rows, and
-- so do the runs kept before this version: readers read both, the record first, a row for the same node after it.
-- VARCHAR without a length is unbounded on both stores, and H2 keeps it in the row, not as a separate LOB.
ALTER TABLE workflow_run ADD COLUMN nodes VARCHAR;
ALTER TABLE workflow_run ADD COLUMN events_from BIGINT;
ALTER TABLE workflow_run ADD COLUMN events VARCHAR;
