package dev.hexaflow.adapters.http.server;

import dev.hexaflow.adapters.http.support.JsonResponses;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Requests that Jetty refuses before any route sees them are answered in the error shape of the API whose path
 * they name (a path that is not valid UTF-8, say), and when not even the path can be read (an encoded NUL in the
 * request line), in the common JSON error shape: never as Jetty's HTML page.
 */
final class JsonErrorHandler extends ErrorHandler {

    private final List<RouteGroup> groups;

    JsonErrorHandler(List<RouteGroup> groups) {
        this.groups = List.copyOf(groups);
    }

    /** Jetty writes error bodies for GET, POST and HEAD only; a refused PUT or DELETE is told why too. */
    @Override
    public boolean errorPageForMethod(String method) {
        return true;
    }

    @Override
    protected void generateResponse(Request request, Response response, int status, String message,
            Throwable cause, Callback callback) {
        String path = request.getHttpURI() == null ? null : request.getHttpURI().getPath();
        RouteGroup.RefusedAnswer answer = groups.stream()
                .flatMap(group -> path == null ? Stream.empty() : group.refused(path, status).stream())
                .findFirst()
                .orElseGet(() -> new RouteGroup.RefusedAnswer(status, "application/json", body(status)));
        response.setStatus(answer.status());
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, answer.contentType());
        // Jetty may drop a connection whose request it could not read; say so, lest the client reuse it.
        response.getHeaders().put(HttpHeader.CONNECTION, "close");
        response.write(true, ByteBuffer.wrap(answer.body()), callback);
    }

    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
        fields.put(HttpHeader.CONTENT_TYPE, "application/json");
        return ByteBuffer.wrap(body(status));
    }

    private static byte[] body(int status) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("code", status < 500 ? "bad_request" : "internal_server_error");
        body.put("message", status < 500 ? "The request could not be read: " + HttpStatus.getMessage(status) + "."
                : "The server encountered an internal error and was unable to complete your request.");
        body.put("status", status);
        return JsonResponses.json(body).getBytes(StandardCharsets.UTF_8);
    }
}
