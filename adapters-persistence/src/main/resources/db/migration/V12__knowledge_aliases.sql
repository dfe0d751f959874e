-- Dify dataset ids bound to an existing knowledge base, so that an imported app's dataset_ids (and the Knowledge
-- API) reach a base made under another id. Deleting the base deletes its bindings.
CREATE TABLE knowledge_alias (
    dataset_id VARCHAR(64) PRIMARY KEY,
    base_id    VARCHAR(64) NOT NULL REFERENCES knowledge_base (id) ON DELETE CASCADE
);
CREATE INDEX knowledge_alias_base ON knowledge_alias (base_id);
