-- Completion webhooks. Each app's settings: the callback its runs use when a request names none, and the secret
-- its deliveries are signed with (kept as it is: an HMAC needs it).
CREATE TABLE app_webhook (
    app_id           VARCHAR(36) PRIMARY KEY REFERENCES app (id),
    default_callback VARCHAR(2048),
    secret           VARCHAR(128)
);

-- A delivery of a run's end to its callback, kept from the run's start until delivered or given up; it names its
-- run without a reference, so that pruning runs keeps the record of what was sent. Times are Unix milliseconds.
-- An instance claims a due delivery (claimed_until in the future) before sending it, so that of several
-- instances on one database only one sends it.
CREATE TABLE webhook_delivery (
    id              VARCHAR(36) PRIMARY KEY,
    app_id          VARCHAR(36)    NOT NULL,
    run_id          VARCHAR(36)    NOT NULL,
    url             VARCHAR(2048)  NOT NULL,
    state           VARCHAR(20)    NOT NULL,
    attempts        INT            NOT NULL,
    next_attempt_at BIGINT         NOT NULL,
    claimed_until   BIGINT         NOT NULL,
    last_status     INT,
    last_error      VARCHAR(4000),
    created_at      BIGINT         NOT NULL,
    due_since       BIGINT
);
-- What the deliverer asks for: the due ones by time, and those waiting for their run.
CREATE INDEX webhook_delivery_due ON webhook_delivery (state, next_attempt_at);
-- An app's deliveries, newest first.
CREATE INDEX webhook_delivery_app ON webhook_delivery (app_id, created_at, id);

CREATE TABLE webhook_attempt (
    delivery_id    VARCHAR(36)   NOT NULL REFERENCES webhook_delivery (id) ON DELETE CASCADE,
    number         INT           NOT NULL,
    attempted_at   BIGINT        NOT NULL,
    status_code    INT,
    error          VARCHAR(4000),
    elapsed_millis BIGINT        NOT NULL,
    PRIMARY KEY (delivery_id, number)
);
