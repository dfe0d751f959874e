-- The trigger nodes of the apps' published workflows, kept between runs: a schedule's next fire time (the claim
-- an instance makes to fire a tick is a change of it from the due time to the next), a webhook's URL code and
-- authentication, and whether each is on. One row per node of an app; publishing keeps a node's row.
CREATE TABLE app_trigger (
    id             VARCHAR(36) PRIMARY KEY,
    app_id         VARCHAR(36) NOT NULL,
    node_id        VARCHAR(255) NOT NULL,
    kind           VARCHAR(20) NOT NULL,
    title          VARCHAR(1000) NOT NULL,
    enabled        BOOLEAN NOT NULL,
    code           VARCHAR(64) UNIQUE,
    cron           VARCHAR(1000),
    timezone       VARCHAR(100),
    next_fire_at   BIGINT,
    missed_ticks   VARCHAR(20) NOT NULL,
    auth_kind      VARCHAR(20) NOT NULL,
    auth_header    VARCHAR(255),
    auth_secret    VARCHAR(1000),
    created_at     BIGINT NOT NULL,
    UNIQUE (app_id, node_id)
);
CREATE INDEX app_trigger_due ON app_trigger (next_fire_at);

-- Each tick a schedule fired, once: the store's record that exactly one instance started its run.
CREATE TABLE trigger_tick (
    trigger_id  VARCHAR(36) NOT NULL,
    due_at      BIGINT NOT NULL,
    run_id      VARCHAR(36),
    outcome     VARCHAR(20) NOT NULL,
    fired_at    BIGINT NOT NULL,
    PRIMARY KEY (trigger_id, due_at)
);

-- How a run started: null (a caller's request, Dify's app-run) or the kind of trigger (schedule, webhook, plugin).
ALTER TABLE workflow_run ADD COLUMN triggered_from VARCHAR(20);
