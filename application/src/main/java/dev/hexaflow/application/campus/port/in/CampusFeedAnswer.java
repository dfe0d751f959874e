package dev.hexaflow.application.campus.port.in;

import dev.hexaflow.domain.campus.FeedEnvelope;

/**
 * A feed answer ready to send: the envelope, its rendering (body and media type), and the HTTP status that
 * carries it; a refusal that passes with time (a key past its rate) says after how many seconds to try again
 * ({@code retryAfterSeconds}, 0 otherwise).
 */
public record CampusFeedAnswer(FeedEnvelope envelope, String contentType, byte[] body, long retryAfterSeconds) {

    public CampusFeedAnswer(FeedEnvelope envelope, String contentType, byte[] body) {
        this(envelope, contentType, body, 0);
    }

    public int httpStatus() {
        return envelope.meta().status().httpStatus();
    }
}
