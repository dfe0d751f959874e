-- When a knowledge document was archived (Dify's archived_at; its archived is whether this is set): an archived
-- document is out of searches and refuses edits until it is un-archived. NULL for one not archived.
ALTER TABLE knowledge_document ADD COLUMN archived_at TIMESTAMP WITH TIME ZONE;
