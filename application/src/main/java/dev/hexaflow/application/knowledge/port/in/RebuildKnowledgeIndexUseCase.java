package dev.hexaflow.application.knowledge.port.in;

/** Keeps the search index in step with the kept chunks. */
public interface RebuildKnowledgeIndexUseCase {

    /** Rebuilds the index from the kept chunks when it is missing or differs from them; answers whether it did. */
    boolean rebuildIfStale();
}
