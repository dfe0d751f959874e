package dev.hexaflow.application.knowledge.port.in;

import dev.hexaflow.domain.knowledge.Chunk;
import dev.hexaflow.domain.knowledge.KnowledgeBase;
import dev.hexaflow.domain.knowledge.KnowledgeDocument;

/** A chunk a search found, with its base and document, and its score from 0 to 1. */
public record RetrievedChunk(KnowledgeBase base, KnowledgeDocument document, Chunk chunk, double score) {
}
