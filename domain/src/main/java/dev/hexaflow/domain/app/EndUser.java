package dev.hexaflow.domain.app;

/** An end user of an app: the {@code user} string a client sends, made an end user on its first use. */
public record EndUser(String id, String appId, String sessionId, long createdAt) {

    public EndUser {
        if (id == null || appId == null || sessionId == null || sessionId.isEmpty()) {
            throw new IllegalArgumentException("an end user needs an id, an app and a session id");
        }
    }
}
