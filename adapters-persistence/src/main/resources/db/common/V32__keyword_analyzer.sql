-- How a knowledge base's keyword search reads words (Hexaflow's keyword_analyzer: auto, english, cjk or standard).
-- Every base, old ones included, starts on auto; the search index holds every analyzer's field, so a change needs
-- no re-indexing (an index written before these fields is rebuilt at start).
ALTER TABLE knowledge_base ADD COLUMN keyword_analyzer VARCHAR(16) DEFAULT 'auto' NOT NULL;
