package dev.hexaflow.application.knowledge.port.in;

/**
 * Ends the indexing a stop, a crash or a store that failed its writes left unfinished: each document still
 * {@code indexing} becomes {@code error} with the reason (one warning of the log each, naming its dataset), and can
 * be indexed again by an update.
 */
public interface CloseInterruptedIndexingUseCase {

    /** The reason of a document whose server stopped while indexing it. */
    String STOPPED = "The server stopped while the document was being indexed; update it, or add the same content "
            + "again, to index it again.";

    /** The reason of a document whose instance died while indexing it, ended by another instance. */
    String INSTANCE_LAPSED = "The server indexing the document stopped answering; another instance ended it. Update "
            + "it, or add the same content again, to index it again.";

    /** The reason of a document the store could not keep while indexing it, ended once the store recovered. */
    String STORE_FAILED = "The server could not keep the document while indexing it: writing to its data directory "
            + "failed. Update it, or add the same content again, to index it again.";

    /**
     * Alone on the store: ends every document left {@code indexing}, but those this process is indexing now, with
     * the reason; answers how many.
     */
    int closeInterrupted(String reason);

    /**
     * Where instances share the store: ends the documents left {@code indexing} by an instance whose lease was not
     * renewed at {@code leaseCutoff} (the store's Unix milliseconds) or after, or by no known instance; answers how
     * many.
     */
    int closeOfLapsedInstances(long leaseCutoff);
}
