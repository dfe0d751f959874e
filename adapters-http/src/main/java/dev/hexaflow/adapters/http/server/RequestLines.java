package dev.hexaflow.adapters.http.server;

import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.RequestLog;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.NanoTime;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One line per answered request, when the operator asks for them: method, path, status, milliseconds, remote
 * address. The path never carries its query: Dify's routes take tokens and keys there (a page's token, a campus
 * key, a signed file link); nor the credential some paths end with (a webhook trigger's code, a form's token).
 */
final class RequestLines implements RequestLog {

    private static final Logger LOG = LoggerFactory.getLogger(RequestLines.class);
    private static final int LONGEST_PATH = 300;
    /** Paths whose last segment is the credential: a webhook's URL code, a paused run's form token. */
    private static final java.util.regex.Pattern SECRET_TAIL = java.util.regex.Pattern.compile(
            "^(/triggers/webhook/|/form/|/api/form/human_input/|/v1/form/human_input/)[^/]+$");

    @Override
    public void log(Request request, Response response) {
        String path = SECRET_TAIL.matcher(oneLine(request.getHttpURI().getPath())).replaceFirst("$1…");
        long millis = TimeUnit.NANOSECONDS.toMillis(NanoTime.since(request.getBeginNanoTime()));
        String address = Request.getRemoteAddr(request);
        LOG.atInfo().addKeyValue("method", request.getMethod()).addKeyValue("path", path)
                .addKeyValue("status", response.getStatus()).addKeyValue("duration_ms", millis)
                .addKeyValue("remote_address", address)
                .log("{} {} {} {} ms {}", request.getMethod(), path, response.getStatus(), millis, address);
    }

    /** A path as a client sent it may hold anything: no line breaks into the log, and no more than a line. */
    private static String oneLine(String path) {
        String clean = path == null ? "" : path.replaceAll("\\p{Cntrl}", "?");
        return clean.length() <= LONGEST_PATH ? clean : clean.substring(0, LONGEST_PATH) + "...";
    }
}
