package dev.hexaflow.adapters.http.server;

import io.javalin.config.RoutesConfig;
import java.util.Optional;

/** A set of routes that the server mounts; each interface of Hexaflow is one group. */
public interface RouteGroup {

    void addTo(RoutesConfig routes);

    /**
     * The answer, in this group's own error shape, to a request for {@code rawPath} that the HTTP layer refused
     * before any route saw it (a path that is not valid UTF-8, for one); empty when the path is not this
     * group's or the group answers errors in the common JSON shape.
     */
    default Optional<RefusedAnswer> refused(String rawPath, int status) {
        return Optional.empty();
    }

    /** A complete answer: status, content type and body. */
    record RefusedAnswer(int status, String contentType, byte[] body) {
    }
}
