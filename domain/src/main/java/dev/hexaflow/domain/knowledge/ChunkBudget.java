package dev.hexaflow.domain.knowledge;

/**
 * How many chunks one document's split may make, and how much text they may hold in all: a rule that splits at
 * every space, or carries almost a whole chunk of overlap into the next, turns a megabyte into hundreds of thousands
 * of chunks (or gigabytes of overlapping text) while the request waits. The split takes from the budget as it goes
 * and stops as soon as it is spent, so what a refused document costs is bounded by the budget, not by its rules.
 * One budget serves one split (a parent-child split's parents and children together); it is not shared.
 */
public final class ChunkBudget {

    /**
     * The chunks of one document by default: a 15 MB upload (the largest file the Service API takes by default)
     * split by Dify's automatic rules makes about 8,000.
     */
    public static final int DEFAULT_MAX_CHUNKS = 10_000;

    /**
     * The characters a document's chunks may hold, overlaps counted, per chunk of its budget: twice the longest
     * chunk of Dify's automatic rules (500 tokens, up to about 2,000 characters), so that only an overlap near a
     * whole chunk reaches it before the chunk count does.
     */
    public static final int CHARACTERS_PER_CHUNK = 4_000;

    private final int maxChunks;
    private final long maxCharacters;
    private int chunks;
    private long characters;

    public ChunkBudget(int maxChunks) {
        if (maxChunks < 1) {
            throw new IllegalArgumentException("the most chunks of a document must be at least 1, was " + maxChunks);
        }
        this.maxChunks = maxChunks;
        this.maxCharacters = (long) maxChunks * CHARACTERS_PER_CHUNK;
    }

    /** A budget of {@link #DEFAULT_MAX_CHUNKS}. */
    public static ChunkBudget standard() {
        return new ChunkBudget(DEFAULT_MAX_CHUNKS);
    }

    public int maxChunks() {
        return maxChunks;
    }

    /**
     * Counts one chunk more.
     *
     * @throws TooManyChunksException when it is one more than the budget allows, or its text passes the budget's
     */
    public void take(String chunk) {
        if (chunks == maxChunks) {
            throw new TooManyChunksException("The document would be split into more than " + maxChunks + " chunks, "
                    + "the most one document may have; split it with a larger max_tokens, a smaller chunk_overlap or "
                    + "another separator.");
        }
        if (characters + chunk.length() > maxCharacters) {
            throw new TooManyChunksException("The document's chunks would hold more than " + maxCharacters
                    + " characters, overlaps counted, the most one document may have; split it with a smaller "
                    + "chunk_overlap.");
        }
        chunks++;
        characters += chunk.length();
    }
}
