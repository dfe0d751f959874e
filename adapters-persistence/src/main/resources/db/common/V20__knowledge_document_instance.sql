-- The instance that last wrote a knowledge document (where instances share a PostgreSQL store), so that a document
-- left 'indexing' by an instance whose lease ran out (it died) is ended 'error' by another instance, while one that
-- a live instance is indexing is left to it. NULL for a document written before, or by a server alone on its store.
ALTER TABLE knowledge_document ADD COLUMN instance_id VARCHAR(36);
