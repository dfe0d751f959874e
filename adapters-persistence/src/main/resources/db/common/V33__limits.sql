-- Limits (issue 39): each app's own limits as JSON (an app without a row has the server's defaults), and the counts
-- every instance of one store shares: counters only grow (tokens and price spent in a period, the key naming the
-- period) and are summed; gauges are one instance's value now (its active runs), counted while it exchanges.
CREATE TABLE app_limits (
    app_id      VARCHAR(36) PRIMARY KEY,
    limits      VARCHAR(100000) NOT NULL,
    updated_at  BIGINT NOT NULL
);
CREATE TABLE limit_counters (
    counter_key VARCHAR(600) PRIMARY KEY,
    amount      BIGINT NOT NULL,
    ends_at     BIGINT NOT NULL DEFAULT 0,
    changed_at  BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX limit_counters_changed ON limit_counters (changed_at);
CREATE TABLE limit_gauges (
    instance    VARCHAR(64) NOT NULL,
    gauge_key   VARCHAR(600) NOT NULL,
    amount      BIGINT NOT NULL,
    PRIMARY KEY (instance, gauge_key)
);
CREATE TABLE limit_exchanges (
    instance     VARCHAR(64) PRIMARY KEY,
    exchanged_at BIGINT NOT NULL
);
