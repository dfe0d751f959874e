package dev.hexaflow.application.runs.port.in;

/**
 * Lets ended runs go as the run retention says (by age, by count per app), in small batches, so that runs
 * being kept meanwhile wait for one batch at most.
 */
public interface PruneRunsUseCase {

    /** Deletes every ended run the retention lets go now; answers how many. None when it keeps all. */
    int prune();

    /**
     * Rewrites the ended runs kept row by row as records, batch after batch, whatever the retention: they read
     * back the same. Answers how many.
     */
    int foldIntoRecords();
}
