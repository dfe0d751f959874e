-- How many runs each app has in each status, kept by the run writer in the same transactions as the runs, so
-- that the logs' total is read, not counted, when it is filtered by status at most.
CREATE TABLE run_count (
    app_id VARCHAR(36) NOT NULL,
    status VARCHAR(20) NOT NULL,
    n      BIGINT      NOT NULL,
    PRIMARY KEY (app_id, status)
);
INSERT INTO run_count (app_id, status, n) SELECT app_id, status, COUNT(*) FROM workflow_run GROUP BY app_id, status;
