-- A run paused at human-input nodes keeps what it needs to go on (the engine's PausedRun, as JSON) until it runs
-- again or ends; its row in workflow_run says 'paused' meanwhile. One row per run: a later pause replaces it.
CREATE TABLE run_pause (
    run_id    VARCHAR(36) PRIMARY KEY,
    app_id    VARCHAR(36) NOT NULL,
    snapshot  VARCHAR(1000000000) NOT NULL,
    paused_at BIGINT NOT NULL
);

-- The forms paused runs sent out, kept after their run ends to say how they were answered. The token opens a form
-- to whoever holds it, so it is unique; a claim (an answer, an expiry) moves a form from 'waiting' in one
-- conditional update, which makes one of two racing claims lose. The definition is the HumanInputForm as JSON.
-- Times are Unix seconds. Like webhook_delivery, a form names its run without a reference: the prune of runs
-- deletes them with their run.
CREATE TABLE human_input_form (
    id              VARCHAR(36) PRIMARY KEY,
    token           VARCHAR(255) NOT NULL UNIQUE,
    run_id          VARCHAR(36) NOT NULL,
    app_id          VARCHAR(36) NOT NULL,
    end_user_id     VARCHAR(36),
    node_id         VARCHAR(200) NOT NULL,
    definition      VARCHAR(16777216) NOT NULL,
    status          VARCHAR(20) NOT NULL,
    action_id       VARCHAR(200),
    submitted_data  VARCHAR(16777216),
    expiration_time BIGINT NOT NULL,
    created_at      BIGINT NOT NULL,
    answered_at     BIGINT,
    applied         BOOLEAN DEFAULT FALSE NOT NULL
);
-- The expiry sweep: waiting forms whose time ran out, oldest first.
CREATE INDEX human_input_form_due ON human_input_form (status, expiration_time);
CREATE INDEX human_input_form_run ON human_input_form (run_id);
-- An app's forms, newest first.
CREATE INDEX human_input_form_app ON human_input_form (app_id, created_at);
