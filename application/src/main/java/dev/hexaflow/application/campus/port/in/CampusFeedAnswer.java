package dev.hexaflow.application.campus.port.in;

import dev.hexaflow.domain.campus.FeedEnvelope;

/**
 * A feed answer ready to send: the envelope, its rendering (body and media type), and the HTTP status that
 * carries it.
 */
public record CampusFeedAnswer(FeedEnvelope envelope, String contentType, byte[] body) {

    public int httpStatus() {
        return envelope.meta().status().httpStatus();
    }
}
