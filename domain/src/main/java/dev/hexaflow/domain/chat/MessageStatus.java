package dev.hexaflow.domain.chat;

/** How a message's turn ended, by Dify's names: normal (answered, or still answering), error, stopped. */
public enum MessageStatus {
    NORMAL("normal"),
    ERROR("error"),
    STOPPED("stopped");

    private final String wireName;

    MessageStatus(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** @throws IllegalArgumentException naming the text for a status Dify does not have */
    public static MessageStatus fromWire(String text) {
        for (MessageStatus status : values()) {
            if (status.wireName.equals(text)) {
                return status;
            }
        }
        throw new IllegalArgumentException("a message status is normal, error or stopped, was '" + text + "'");
    }
}
