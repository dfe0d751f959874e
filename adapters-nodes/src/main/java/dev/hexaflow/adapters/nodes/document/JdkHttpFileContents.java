package dev.hexaflow.adapters.nodes.document;

import dev.hexaflow.adapters.nodes.net.OnFirstUseHttpClient;
import dev.hexaflow.adapters.nodes.net.OutboundExchange;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.FileContents;
import dev.hexaflow.domain.workflow.FileValue;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/**
 * Files given by URL, fetched over HTTP(S) up to a size limit, every target (redirects included) checked by the
 * outbound policy. Uploaded files (local_file) need the server's
 * file store, which a server wires in front of this.
 */
public final class JdkHttpFileContents implements FileContents {

    private final HttpClient client = OnFirstUseHttpClient.of(HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(10)).followRedirects(HttpClient.Redirect.NEVER));
    private final OutboundExchange outbound;
    private final long maxBytes;

    /** @param outbound where the policy on the addresses a workflow may reach is enforced */
    public JdkHttpFileContents(OutboundExchange outbound, long maxBytes) {
        this.outbound = outbound;
        this.maxBytes = maxBytes;
    }

    @Override
    public byte[] read(FileValue file, StopSignal stop) {
        String url = file.remoteUrl() != null ? file.remoteUrl() : file.url();
        if (url == null || url.isBlank()) {
            throw new FileException("file " + file.filename() + " has no URL and this server has no store of "
                    + "uploaded files", null);
        }
        OutboundExchange.Outgoing request;
        try {
            request = new OutboundExchange.Outgoing(URI.create(url), "GET", List.of(), null);
        } catch (IllegalArgumentException e) {
            throw new FileException("'" + url + "' is not a URL", e);
        }
        try {
            HttpResponse<InputStream> response = outbound.send(client, request, Duration.ofSeconds(60), stop);
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
        } catch (OutboundExchange.RefusedException e) {
            throw new FileException(e.getMessage(), e);
        } catch (java.net.UnknownHostException e) {
            throw new FileException(url + ": unknown host " + e.getMessage(), e);
        } catch (Exception e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new FileException(url + ": " + cause.getMessage(), e);
        }
    }
}
