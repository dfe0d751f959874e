package dev.hexaflow.adapters.nodes.tool;

import dev.hexaflow.adapters.nodes.net.OnFirstUseHttpClient;
import dev.hexaflow.adapters.nodes.net.OutboundExchange;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.workflow.port.out.ToolRunner.ToolException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;

/**
 * A page fetched for a reading tool (the webscraper, the jina reader): through the outbound policy, every
 * redirect checked, at most {@code maxBytes} read within {@code timeout}; a failure is the tool's error.
 */
final class PageFetch {

    /** What came back: the status, the content type's main part and charset, and the bytes (200 only). */
    record Page(URI uri, int status, String mainType, Charset charset, byte[] bytes) {
    }

    private final OutboundExchange outbound;
    private final HttpClient client;
    private final Duration timeout;
    private final long maxBytes;

    PageFetch(OutboundExchange outbound, Duration timeout, long maxBytes) {
        this.outbound = outbound;
        this.timeout = timeout;
        this.maxBytes = maxBytes;
        this.client = OnFirstUseHttpClient.of(HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(timeout));
    }

    Page get(String url, String agent, StopSignal stop) {
        URI uri = httpUri(url);
        OutboundExchange.Outgoing request = new OutboundExchange.Outgoing(uri, "GET",
                List.of(Map.entry("User-Agent", agent)), null);
        HttpResponse<InputStream> response = send(request, url, stop);
        try (InputStream body = response.body()) {
            String contentType = response.headers().firstValue("content-type").orElse("text/html");
            String mainType = contentType.split(";")[0].strip().toLowerCase(Locale.ROOT);
            if (response.statusCode() != 200) {
                return new Page(uri, response.statusCode(), mainType, StandardCharsets.UTF_8, new byte[0]);
            }
            byte[] bytes = body.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
            if (bytes.length > maxBytes) {
                throw new ToolException("The page at " + url + " is larger than " + maxBytes + " bytes");
            }
            return new Page(uri, 200, mainType, charset(contentType), bytes);
        } catch (IOException e) {
            throw new ToolException("The page at " + url + " could not be read: " + e.getMessage());
        }
    }

    private static URI httpUri(String url) {
        URI uri;
        try {
            uri = URI.create(url.strip());
        } catch (IllegalArgumentException e) {
            throw new ToolException("Invalid URL '" + url + "'");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new ToolException("Invalid URL '" + url + "': only http and https are fetched");
        }
        return uri;
    }

    private HttpResponse<InputStream> send(OutboundExchange.Outgoing request, String url, StopSignal stop) {
        try {
            return outbound.send(client, request, timeout, stop);
        } catch (OutboundExchange.RefusedException e) {
            throw new ToolException(e.getMessage());
        } catch (UnknownHostException e) {
            throw new ToolException("The host of " + url + " is not known");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new ToolException(cause instanceof java.net.http.HttpTimeoutException
                    ? "The page at " + url + " did not answer within " + timeout.toSeconds() + " s"
                    : "The page at " + url + " could not be fetched: " + cause.getMessage());
        } catch (CancellationException e) {
            throw new ToolException("The run stopped while the page was fetched");
        } catch (IOException e) {
            throw new ToolException("The page at " + url + " could not be fetched: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ToolException("The run stopped while the page was fetched");
        }
    }

    private static Charset charset(String contentType) {
        for (String part : contentType.split(";")) {
            String[] pair = part.strip().split("=", 2);
            if (pair.length == 2 && pair[0].strip().equalsIgnoreCase("charset")) {
                try {
                    return Charset.forName(pair[1].strip().replace("\"", ""));
                } catch (IllegalArgumentException e) {
                    return StandardCharsets.UTF_8;
                }
            }
        }
        return StandardCharsets.UTF_8;
    }
}
