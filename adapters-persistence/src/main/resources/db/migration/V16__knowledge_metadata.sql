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
