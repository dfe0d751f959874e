package dev.hexaflow.application.knowledge.service;

import dev.hexaflow.application.common.StorageUnavailableException;

/**
 * Changes of the index made after the store's, the store being the truth, when the index cannot take them (its
 * directory cannot be written): a change that adds to what searches find is undone in the store and refused with
 * the index's reason (which the API answers 507); a deletion the store kept stays kept, and the stale entries the
 * index still holds are dropped by searches (they read each hit in the store) until the next start finds the index
 * out of step and rebuilds it. Either way one warning of the log names what failed.
 */
final class IndexChanges {

    private static final System.Logger LOG = System.getLogger(IndexChanges.class.getName());

    private IndexChanges() {
    }

    /** @throws StorageUnavailableException when the index could not take the change, once {@code undo} ran */
    static void orUndo(String what, Runnable change, Runnable undo) {
        try {
            change.run();
        } catch (StorageUnavailableException e) {
            String undone = "; undone";
            try {
                undo.run();
            } catch (RuntimeException failed) {
                e.addSuppressed(failed);
                undone = "; it could not be undone in the store (" + failed + "), the next start rebuilds the index";
            }
            LOG.log(System.Logger.Level.WARNING, "The knowledge index could not be written " + what + undone + ": "
                    + e.getMessage());
            throw e;
        }
    }

    static void afterDeletion(String what, Runnable change) {
        try {
            change.run();
        } catch (StorageUnavailableException e) {
            LOG.log(System.Logger.Level.WARNING, "The knowledge index could not be written " + what + "; the "
                    + "deletion is kept and searches skip what the index still holds until the next start rebuilds "
                    + "it: " + e.getMessage());
        }
    }
}
