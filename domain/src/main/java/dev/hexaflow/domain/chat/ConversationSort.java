package dev.hexaflow.domain.chat;

/** The orders Dify lists conversations in, by their sort_by names; the default is newest change first. */
public enum ConversationSort {
    CREATED_AT("created_at", false, true),
    CREATED_AT_DESC("-created_at", false, false),
    UPDATED_AT("updated_at", true, true),
    UPDATED_AT_DESC("-updated_at", true, false);

    public static final ConversationSort DEFAULT = UPDATED_AT_DESC;

    private final String wireName;
    private final boolean byUpdate;
    private final boolean ascending;

    ConversationSort(String wireName, boolean byUpdate, boolean ascending) {
        this.wireName = wireName;
        this.byUpdate = byUpdate;
        this.ascending = ascending;
    }

    public String wireName() {
        return wireName;
    }

    /** Whether it sorts by updated_at (else by created_at). */
    public boolean byUpdate() {
        return byUpdate;
    }

    public boolean ascending() {
        return ascending;
    }

    /** The time this order sorts by. */
    public long key(Conversation conversation) {
        return byUpdate ? conversation.updatedAt() : conversation.createdAt();
    }

    /**
     * The order named; null or empty names the default.
     *
     * @throws IllegalArgumentException for any other name, with the message the API answers
     */
    public static ConversationSort fromWire(String text) {
        if (text == null || text.isEmpty()) {
            return DEFAULT;
        }
        for (ConversationSort sort : values()) {
            if (sort.wireName.equals(text)) {
                return sort;
            }
        }
        throw new IllegalArgumentException("sort_by must be one of created_at, -created_at, updated_at, "
                + "-updated_at");
    }
}
