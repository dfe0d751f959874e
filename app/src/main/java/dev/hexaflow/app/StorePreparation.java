package dev.hexaflow.app;

import dev.hexaflow.app.wiring.CampusModule;
import dev.hexaflow.app.wiring.ChatModule;
import dev.hexaflow.app.wiring.Storage;
import dev.hexaflow.app.wiring.WorkflowModule;
import dev.hexaflow.application.instances.service.InstanceLease;
import dev.hexaflow.application.knowledge.port.in.CloseInterruptedIndexingUseCase;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the store ready for a server, on threads of its own while the modules are built and the HTTP server starts:
 * migrates the database from the moment it is connected; then fails the runs (and their chat messages) a previous
 * process left running; until a server's first start on it has completed (even where a command made the database
 * before) loads the bundled campus data and issues a campus key (answered); deletes the half-written uploads a
 * previous process left.
 */
final class StorePreparation {

    private static final Logger LOG = LoggerFactory.getLogger(StorePreparation.class);

    /** What preparing the database found: whether this is the server's first start, and the campus key it issued. */
    record Prepared(boolean firstStart, Optional<String> newCampusKey) {
    }

    private StorePreparation() {
    }

    /**
     * Starts migrating the database at once, on a thread of its own: nothing the modules do as they are built
     * touches the database, so the migration (Flyway's scripts on an empty store, its check of them on an existing
     * one) no longer waits for them.
     */
    static CompletableFuture<Void> migrateInBackground(Storage storage) {
        return CompletableFuture.runAsync(storage::migrate, task -> new Thread(task, "hexaflow-migrate").start());
    }

    /** Makes the migrated database ready: {@link #migrateInBackground} has completed. */
    static Prepared prepare(Storage storage, CampusModule campus, WorkflowModule workflows, ChatModule chat,
            InstanceLease lease, Runnable keepLease) {
        // Alone on its store, a start fails every run left running; sharing it, only those of no live instance,
        // once it holds a lease of its own, kept from then on (so that no other start takes its first start over).
        boolean shared = storage.instance().shared();
        int interrupted = shared ? lease.renewAndSweep() : workflows.closeInterruptedRuns();
        if (shared) {
            keepLease.run();
        }
        Optional<String> newCampusKey = Optional.empty();
        boolean firstStart = storage.takeFirstServerStart(shared ? lease.liveSince() : 0);
        if (firstStart) {
            try {
                campus.loadBundledData();
                newCampusKey = Optional.of(campus.issueKey.issue());
            } catch (RuntimeException e) {
                giveUpFirstStart(storage);
                throw e;
            }
        }
        if (interrupted > 0) {
            LOG.warn("{} runs were left running when the server last stopped; they are now failed", interrupted);
        }
        closeWhatWasCutOff(workflows, chat, shared);
        workflows.limits.start();
        return new Prepared(firstStart, newCampusKey);
    }

    private static void closeWhatWasCutOff(WorkflowModule workflows, ChatModule chat, boolean shared) {
        // Sharing the store, the lease's sweep ended the documents instances that died left indexing.
        if (!shared) {
            workflows.knowledge.interrupted.closeInterrupted(CloseInterruptedIndexingUseCase.STOPPED);
        }
        int cutOff = chat.closeInterruptedTurns(workflows.runRecords);
        if (cutOff > 0) {
            LOG.warn("{} chat messages were left without their answer; they now end in error", cutOff);
        }
        if (workflows.knowledge.rebuild.rebuildIfStale()) {
            LOG.info("The knowledge index was missing or out of step with the database; it is rebuilt");
        }
        int orphans = workflows.files.deleteOrphanBlobs();
        if (orphans > 0) {
            LOG.warn("{} uploads were cut off when the server last stopped; their partial files are deleted",
                    orphans);
        }
    }

    /** Gives the first start back for the next start to make, as this one failed. */
    static void giveUpFirstStart(Storage storage) {
        try {
            storage.giveUpFirstServerStart();
        } catch (RuntimeException e) {
            LOG.warn("Could not give the failed first start back; the demo apps and a campus key are to be made by "
                    + "hand: {}", e.getMessage());
        }
    }
}
