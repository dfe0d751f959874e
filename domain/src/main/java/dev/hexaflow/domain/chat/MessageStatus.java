package dev.hexaflow.domain.chat;

/**
 * How a message's turn ended, by Dify's names: normal (answered, or still answering), error, stopped, or paused
 * (its run waits for a person's answer to a form; the answer so far is kept, the rest comes when the run goes on).
 */
public enum MessageStatus {
    NORMAL("normal"),
    ERROR("error"),
    STOPPED("stopped"),
    PAUSED("paused");

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
        throw new IllegalArgumentException("a message status is normal, error, stopped or paused, was '" + text + "'");
    }
}
