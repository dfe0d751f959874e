package dev.hexaflow.application.campus.port.out;

import dev.hexaflow.domain.campus.FeedEnvelope;
import dev.hexaflow.domain.campus.JsonpCallback;
import dev.hexaflow.domain.campus.OutputFormat;
import java.util.Optional;

/** Turns a feed answer into the bytes of one output format. */
public interface FeedRenderer {

    /**
     * Renders the envelope; a callback wraps a JSON answer as JSONP and is ignored by other formats. A format
     * that cannot carry the envelope (ics for an error) is never asked for: callers fall back to JSON.
     */
    RenderedFeed render(FeedEnvelope envelope, OutputFormat format, Optional<JsonpCallback> callback);

    /** The body of a rendered answer with its media type. */
    record RenderedFeed(String contentType, byte[] body) {
    }
}
