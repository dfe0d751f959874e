package dev.hexaflow.workflow.port.out;

import dev.hexaflow.workflow.engine.StopSignal;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Sends one HTTP request for an http-request node and answers the response, cancelled when the run stops. */
public interface HttpRequester {

    /** @throws HttpException when no response came: refused, timed out, TLS failed, or stopped */
    HttpAnswer send(HttpCall call, StopSignal stop);

    /** A request as the node built it: every reference already rendered, params already in the URL. */
    record HttpCall(String method, String url, List<Map.Entry<String, String>> headers, byte[] body,
            Duration connectTimeout, Duration readTimeout, boolean verifyTls, long maxResponseBytes) {
        public HttpCall {
            headers = List.copyOf(headers);
            body = body == null ? new byte[0] : body;
        }
    }

    /** The response: status, headers (names in lower case), body bytes. */
    record HttpAnswer(int status, Map<String, List<String>> headers, byte[] body) {
        public String contentType() {
            List<String> types = headers.get("content-type");
            return types == null || types.isEmpty() ? "" : types.get(0);
        }
    }

    /** No response could be had. */
    class HttpException extends RuntimeException {
        public HttpException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
