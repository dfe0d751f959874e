-- Chatflows: conversations (each one end user's with one app), their messages, the feedback on them and each
-- conversation's variables. What belongs to a conversation goes with it (ON DELETE CASCADE). A message names
-- the run that answered it without a reference: pruning runs leaves the message and its history whole.
CREATE TABLE conversation (
    id           VARCHAR(36) PRIMARY KEY,
    app_id       VARCHAR(36)       NOT NULL REFERENCES app (id),
    end_user_id  VARCHAR(36)       NOT NULL REFERENCES end_user (id),
    name         VARCHAR(100000)   NOT NULL,
    inputs       TEXT NOT NULL,
    status       VARCHAR(20)       NOT NULL,
    introduction VARCHAR(1000000)  NOT NULL,
    created_at   BIGINT            NOT NULL,
    updated_at   BIGINT            NOT NULL
);
-- An end user's list, in either order by either time, pages by (time, id).
CREATE INDEX conversation_user_updated ON conversation (app_id, end_user_id, updated_at, id);
CREATE INDEX conversation_user_created ON conversation (app_id, end_user_id, created_at, id);

CREATE TABLE message (
    id                  VARCHAR(36) PRIMARY KEY,
    conversation_id     VARCHAR(36)       NOT NULL REFERENCES conversation (id) ON DELETE CASCADE,
    app_id              VARCHAR(36)       NOT NULL,
    end_user_id         VARCHAR(36)       NOT NULL,
    parent_message_id   VARCHAR(36),
    inputs              TEXT NOT NULL,
    query_text          TEXT NOT NULL,
    answer              TEXT NOT NULL,
    status              VARCHAR(20)       NOT NULL,
    error               VARCHAR(1000000),
    workflow_run_id     VARCHAR(36),
    task_id             VARCHAR(36),
    message_tokens      BIGINT            NOT NULL,
    answer_tokens       BIGINT            NOT NULL,
    latency             DOUBLE PRECISION  NOT NULL,
    files               TEXT NOT NULL,
    retriever_resources TEXT NOT NULL,
    created_at          BIGINT            NOT NULL
);
-- A conversation's history, paged back in time, and its last turns for a model's memory.
CREATE INDEX message_conversation_created ON message (conversation_id, created_at, id);

CREATE TABLE message_feedback (
    id              VARCHAR(36) PRIMARY KEY,
    app_id          VARCHAR(36)     NOT NULL,
    conversation_id VARCHAR(36)     NOT NULL REFERENCES conversation (id) ON DELETE CASCADE,
    message_id      VARCHAR(36)     NOT NULL REFERENCES message (id) ON DELETE CASCADE,
    rating          VARCHAR(10)     NOT NULL,
    content         VARCHAR(1000000),
    from_source     VARCHAR(10)     NOT NULL,
    end_user_id     VARCHAR(36),
    created_at      BIGINT          NOT NULL,
    updated_at      BIGINT          NOT NULL,
    CONSTRAINT message_feedback_one UNIQUE (message_id, from_source)
);
-- An app's feedback, newest first, a page at a time.
CREATE INDEX message_feedback_app_created ON message_feedback (app_id, created_at DESC, id DESC);

-- The variable's id is the DSL author's (one per chatflow), so a row is keyed by its conversation too. A
-- conversation holds a handful: its key's prefix serves every read.
CREATE TABLE conversation_variable (
    conversation_id VARCHAR(36)       NOT NULL REFERENCES conversation (id) ON DELETE CASCADE,
    id              VARCHAR(1000)     NOT NULL,
    name            VARCHAR(1000)     NOT NULL,
    value_type      VARCHAR(40)       NOT NULL,
    var_value       TEXT,
    description     VARCHAR(100000)   NOT NULL,
    position        INT               NOT NULL,
    created_at      BIGINT            NOT NULL,
    updated_at      BIGINT            NOT NULL,
    PRIMARY KEY (conversation_id, id)
);
