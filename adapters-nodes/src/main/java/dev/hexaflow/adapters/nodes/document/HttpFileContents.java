package dev.hexaflow.adapters.nodes.document;

import dev.hexaflow.application.workflow.engine.StopSignal;
import dev.hexaflow.application.workflow.port.out.FileContents;
import dev.hexaflow.domain.workflow.FileValue;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Files given by URL, fetched over HTTP(S) up to a size limit. Uploaded files (local_file) need the server's
 * file store, which a server wires in front of this.
 */
public final class HttpFileContents implements FileContents {

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
            .followRedirects(HttpClient.Redirect.NORMAL).build();
    private final long maxBytes;

    public HttpFileContents(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    @Override
    public byte[] read(FileValue file, StopSignal stop) {
        String url = file.remoteUrl() != null ? file.remoteUrl() : file.url();
        if (url == null || url.isBlank()) {
            throw new FileException("file " + file.filename() + " has no URL and this server has no store of "
                    + "uploaded files", null);
        }
        CompletableFuture<HttpResponse<InputStream>> exchange;
        try {
            exchange = client.sendAsync(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60))
                    .GET().build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (IllegalArgumentException e) {
            throw new FileException("'" + url + "' is not a URL", e);
        }
        try (AutoCloseable cancel = stop.onStop(() -> exchange.cancel(true))) {
            HttpResponse<InputStream> response = exchange.get();
            try (InputStream in = response.body()) {
                if (response.statusCode() >= 400) {
                    throw new FileException(response.statusCode() + " from " + url, null);
                }
                byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
                if (bytes.length > maxBytes) {
                    throw new FileException("the file is larger than " + maxBytes / (1024 * 1024) + " MB", null);
                }
                return bytes;
            }
        } catch (FileException e) {
            throw e;
        } catch (Exception e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new FileException(url + ": " + cause.getMessage(), e);
        }
    }
}
