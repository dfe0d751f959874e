package dev.hexaflow.domain.trigger;

import java.util.Locale;
import java.util.Optional;

/** The HTTP method a webhook trigger accepts, by Dify's lower-case name. */
public enum WebhookMethod {
    GET, POST, HEAD, PATCH, PUT, DELETE;

    /** The name in Dify's node data: {@code get}, {@code post}, ... */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The method with this wire name, any case ({@code "POST"} as the editor exports it); empty for others. */
    public static Optional<WebhookMethod> fromWireName(String name) {
        for (WebhookMethod method : values()) {
            if (method.wireName().equals(name == null ? null : name.toLowerCase(Locale.ROOT))) {
                return Optional.of(method);
            }
        }
        return Optional.empty();
    }
}
