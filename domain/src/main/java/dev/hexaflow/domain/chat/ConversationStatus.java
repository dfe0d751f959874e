package dev.hexaflow.domain.chat;

/** Where a conversation stands: Dify keeps every conversation {@code normal}; one that is not takes no message. */
public enum ConversationStatus {
    NORMAL("normal");

    private final String wireName;

    ConversationStatus(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** @throws IllegalArgumentException naming the text for a status Dify does not have */
    public static ConversationStatus fromWire(String text) {
        for (ConversationStatus status : values()) {
            if (status.wireName.equals(text)) {
                return status;
            }
        }
        throw new IllegalArgumentException("a conversation status is normal, was '" + text + "'");
    }
}
