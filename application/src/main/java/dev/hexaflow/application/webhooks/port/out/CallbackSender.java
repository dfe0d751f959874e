package dev.hexaflow.application.webhooks.port.out;

import dev.hexaflow.domain.webhook.CallbackUrl;
import java.time.Duration;
import java.util.Map;

/** Posts a JSON body to a callback URL, held to the server's outbound address policy. */
public interface CallbackSender {

    /** Posts and waits at most {@code timeout} for the answer; never throws for the receiver's failures. */
    Answer post(CallbackUrl url, byte[] body, Map<String, String> headers, Duration timeout);

    /**
     * What came of a post: the receiver's status ({@code null} when it did not answer), or why it did not count
     * ({@code error}: a connection that failed, a timeout; null when it answered); {@code refused} when the
     * outbound policy forbids the address, which no retry changes.
     */
    record Answer(Integer status, String error, boolean refused) {

        public static Answer status(int status) {
            return new Answer(status, null, false);
        }

        public static Answer failed(String error) {
            return new Answer(null, error, false);
        }

        public static Answer refusedBecause(String error) {
            return new Answer(null, error, true);
        }
    }
}
