-- Chat apps' annotations (Dify's message_annotations): questions answered ahead of time, each with how many
-- messages it answered. The lengths are Dify's import limits: a question of 2,000 characters, an answer of 10,000.
CREATE TABLE app_annotation (
    id          VARCHAR(36) PRIMARY KEY,
    app_id      VARCHAR(36) NOT NULL,
    question    VARCHAR(2000) NOT NULL,
    answer      VARCHAR(10000) NOT NULL,
    hit_count   BIGINT NOT NULL,
    created_at  BIGINT NOT NULL
);
CREATE INDEX app_annotation_app ON app_annotation (app_id, created_at);

-- Each message an annotation answered (Dify's app_annotation_hit_histories), with the annotation as it was then.
CREATE TABLE app_annotation_hit (
    id                  VARCHAR(36) PRIMARY KEY,
    annotation_id       VARCHAR(36) NOT NULL,
    app_id              VARCHAR(36) NOT NULL,
    end_user_id         VARCHAR(36),
    query_text          VARCHAR(100000) NOT NULL,
    source              VARCHAR(20) NOT NULL,
    score               DOUBLE PRECISION NOT NULL,
    message_id          VARCHAR(36),
    annotation_question VARCHAR(2000) NOT NULL,
    annotation_answer   VARCHAR(10000) NOT NULL,
    created_at          BIGINT NOT NULL
);
CREATE INDEX app_annotation_hit_annotation ON app_annotation_hit (annotation_id, created_at);

-- An app's annotation reply, when on (Dify's app_annotation_settings): the least score a message needs, and the
-- embedding model it was enabled with.
CREATE TABLE app_annotation_setting (
    app_id                  VARCHAR(36) PRIMARY KEY,
    score_threshold         DOUBLE PRECISION NOT NULL,
    embedding_provider_name VARCHAR(255) NOT NULL,
    embedding_model_name    VARCHAR(255) NOT NULL,
    created_at              BIGINT NOT NULL
);
