-- Dify's metadata fields of a knowledge base. A document's values stay in knowledge_document.metadata, by field name;
-- renaming or deleting a field rewrites them. built_in_metadata says whether documents show Dify's built-in fields.
CREATE TABLE knowledge_metadata_field (
    id         VARCHAR(64)  PRIMARY KEY,
    base_id    VARCHAR(64)  NOT NULL REFERENCES knowledge_base (id) ON DELETE CASCADE,
    name       VARCHAR(255) NOT NULL,
    type       VARCHAR(16)  NOT NULL,
    created_at TIMESTAMP WITH TIME ZONE NOT NULL
);
CREATE INDEX knowledge_metadata_field_base ON knowledge_metadata_field (base_id, created_at);

ALTER TABLE knowledge_base ADD COLUMN built_in_metadata BOOLEAN DEFAULT FALSE NOT NULL;

-- Child chunks of a hierarchical_model document's chunks (Dify's parent-child index): the children are searched,
-- a hit answers its parent. Deleting the parent chunk deletes them.
CREATE TABLE knowledge_child_chunk (
    id          VARCHAR(64) PRIMARY KEY,
    chunk_id    VARCHAR(64) NOT NULL REFERENCES knowledge_chunk (id) ON DELETE CASCADE,
    document_id VARCHAR(64) NOT NULL,
    base_id     VARCHAR(64) NOT NULL,
    position    INT         NOT NULL,
    content     TEXT NOT NULL,
    vector      BYTEA
);
CREATE INDEX knowledge_child_chunk_chunk ON knowledge_child_chunk (chunk_id, position);
CREATE INDEX knowledge_child_chunk_document ON knowledge_child_chunk (document_id);
