package dev.hexaflow.application.knowledge.service;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The documents this process is indexing now. Once a store that failed writes recovers, the documents it left
 * {@code indexing} are ended {@code error}, but not these: their indexing goes on and writes their own end.
 */
final class IndexingInFlight {

    private static final Set<String> DOCUMENTS = ConcurrentHashMap.newKeySet();

    private IndexingInFlight() {
    }

    static void begin(String documentId) {
        DOCUMENTS.add(documentId);
    }

    static void end(String documentId) {
        DOCUMENTS.remove(documentId);
    }

    static Set<String> now() {
        return Set.copyOf(DOCUMENTS);
    }
}
