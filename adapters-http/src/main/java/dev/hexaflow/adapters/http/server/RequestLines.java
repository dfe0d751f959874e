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

    @Override
    public void log(Request request, Response response) {
        String path = LoggedPaths.of(request.getHttpURI().getPath());
        long millis = TimeUnit.NANOSECONDS.toMillis(NanoTime.since(request.getBeginNanoTime()));
        String address = Request.getRemoteAddr(request);
        LOG.atInfo().addKeyValue("method", request.getMethod()).addKeyValue("path", path)
                .addKeyValue("status", response.getStatus()).addKeyValue("duration_ms", millis)
                .addKeyValue("remote_address", address)
                .log("{} {} {} {} ms {}", request.getMethod(), path, response.getStatus(), millis, address);
    }
}
