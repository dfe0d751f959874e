-- Keys of the Knowledge (datasets) API, hashed: each opens every knowledge base, as Dify's dataset keys do.
CREATE TABLE dataset_key (
    key_hash   CHAR(64) PRIMARY KEY,
    created_at BIGINT NOT NULL
);
