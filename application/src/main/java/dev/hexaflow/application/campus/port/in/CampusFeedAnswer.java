package dev.hexaflow.application.campus.port.in;

import dev.hexaflow.application.campus.port.out.FeedRenderer.RenderedFeed;
import dev.hexaflow.domain.campus.FeedEnvelope;

/** A feed answer ready to send: the envelope, its rendering, and the HTTP status that carries it. */
public record CampusFeedAnswer(FeedEnvelope envelope, RenderedFeed rendered) {

    public int httpStatus() {
        return envelope.meta().status().httpStatus();
    }
}
