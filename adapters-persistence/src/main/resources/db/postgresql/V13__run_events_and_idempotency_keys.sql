-- A run's events as its stream showed them (the text of each frame's data, one JSON line each), numbered in the
-- run, so that a stream can be resumed after any of them, and a run replayed after a restart. Written by the run
-- writer in its batches, one row per run and batch: the events first_seq to seq, their data joined by newlines
-- (a blocking run's ten events are a row or two, not ten). Read by run, in order: the primary key is the only
-- index.
CREATE TABLE run_event (
    run_id    VARCHAR(36) NOT NULL,
    seq       BIGINT NOT NULL,
    first_seq BIGINT NOT NULL,
    data      TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
);

-- Which run an idempotency key started, per app and end user: the primary key makes one of two racing claims
-- lose. Claims older than a day are replaced on claim and pruned by their age.
CREATE TABLE idempotency_key (
    app_id      VARCHAR(36) NOT NULL,
    end_user    VARCHAR(255) NOT NULL,
    idem_key    VARCHAR(255) NOT NULL,
    fingerprint VARCHAR(64) NOT NULL,
    run_id      VARCHAR(36) NOT NULL,
    task_id     VARCHAR(36) NOT NULL,
    created_at  BIGINT NOT NULL,
    PRIMARY KEY (app_id, end_user, idem_key)
);
CREATE INDEX idempotency_key_created ON idempotency_key (created_at);
