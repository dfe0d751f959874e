-- Knowledge bases (Dify's datasets), their documents and chunks: the source of truth from which the search index
-- under <data dir>/knowledge/ is rebuilt. A chunk's vector is kept as little-endian float32 bytes.
CREATE TABLE knowledge_base (
    id              VARCHAR(64)  PRIMARY KEY,
    name            VARCHAR(40)  NOT NULL,
    description     VARCHAR(400) NOT NULL,
    embedding_model VARCHAR(255),
    search_method   VARCHAR(32)  NOT NULL,
    top_k           INT          NOT NULL,
    score_threshold DOUBLE PRECISION,
    vector_weight   DOUBLE PRECISION NOT NULL,
    keyword_weight  DOUBLE PRECISION NOT NULL,
    created_at      TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE TABLE knowledge_document (
    id           VARCHAR(64)  PRIMARY KEY,
    base_id      VARCHAR(64)  NOT NULL REFERENCES knowledge_base (id) ON DELETE CASCADE,
    name         VARCHAR(255) NOT NULL,
    source       VARCHAR(32)  NOT NULL,
    word_count   INT          NOT NULL,
    content_hash VARCHAR(64)  NOT NULL,
    status       VARCHAR(16)  NOT NULL,
    error        TEXT,
    enabled      BOOLEAN      NOT NULL,
    metadata     TEXT NOT NULL,
    created_at   TIMESTAMP WITH TIME ZONE NOT NULL
);
CREATE INDEX knowledge_document_base ON knowledge_document (base_id, content_hash);

CREATE TABLE knowledge_chunk (
    id              VARCHAR(64) PRIMARY KEY,
    document_id     VARCHAR(64) NOT NULL REFERENCES knowledge_document (id) ON DELETE CASCADE,
    base_id         VARCHAR(64) NOT NULL,
    position        INT         NOT NULL,
    content         TEXT NOT NULL,
    word_count      INT         NOT NULL,
    tokens          INT         NOT NULL,
    keywords        TEXT NOT NULL,
    index_node_hash VARCHAR(64) NOT NULL,
    hit_count       BIGINT      NOT NULL,
    enabled         BOOLEAN     NOT NULL,
    vector          BYTEA
);
CREATE INDEX knowledge_chunk_document ON knowledge_chunk (document_id, position);
