-- Dify dataset ids bound to an existing knowledge base, so that an imported app's dataset_ids (and the Knowledge
-- API) reach a base made under another id. Deleting the base deletes its bindings.
CREATE TABLE knowledge_alias (
    dataset_id VARCHAR(64) PRIMARY KEY,
    base_id    VARCHAR(64) NOT NULL REFERENCES knowledge_base (id) ON DELETE CASCADE
);
CREATE INDEX knowledge_alias_base ON knowledge_alias (base_id);

-- Dify's knowledge tags, and which bases each is bound to.
CREATE TABLE knowledge_tag (
    id         VARCHAR(64) PRIMARY KEY,
    name       VARCHAR(50) NOT NULL,
    created_at TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE TABLE knowledge_tag_binding (
    tag_id  VARCHAR(64) NOT NULL REFERENCES knowledge_tag (id) ON DELETE CASCADE,
    base_id VARCHAR(64) NOT NULL REFERENCES knowledge_base (id) ON DELETE CASCADE,
    PRIMARY KEY (tag_id, base_id)
);
CREATE INDEX knowledge_tag_binding_base ON knowledge_tag_binding (base_id);
