package dev.hexaflow.application.knowledge.service;

import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * One document's chunks are read, changed and written back by one caller at a time in this process: segments
 * created, edited or deleted, and the document replaced or indexed again, would otherwise each write back what it
 * read and lose what another wrote meanwhile. Documents share a fixed set of locks by their id's hash, so the
 * set never grows.
 */
final class DocumentLocks {

    private static final ReentrantLock[] STRIPES = new ReentrantLock[64];

    static {
        for (int i = 0; i < STRIPES.length; i++) {
            STRIPES[i] = new ReentrantLock();
        }
    }

    private DocumentLocks() {
    }

    /** Does the work while holding the document's lock. */
    static <T> T with(String documentId, Supplier<T> work) {
        ReentrantLock lock = STRIPES[Math.floorMod(documentId.hashCode(), STRIPES.length)];
        lock.lock();
        try {
            return work.get();
        } finally {
            lock.unlock();
        }
    }

    static void run(String documentId, Runnable work) {
        with(documentId, () -> {
            work.run();
            return null;
        });
    }
}
