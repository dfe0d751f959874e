package dev.hexaflow.adapters.nodes.http;

import dev.hexaflow.adapters.nodes.net.OutboundExchange;
import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.domain.net.OutboundPolicy;
import dev.hexaflow.workflow.port.out.HttpRequester;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * HTTP through the JDK's client: one client per (connect timeout, TLS checking) pair, the read timeout per
 * request, every target (redirects included) checked by the outbound policy, the exchange cancelled when the run
 * stops, and the body read no further than its limit. Headers the JDK sets itself (Host, Content-Length,
 * Connection...) are left to it.
 */
public final class JdkHttpRequester implements HttpRequester {

    private final Map<String, HttpClient> clients = new ConcurrentHashMap<>();

    private final OutboundExchange outbound;

    /** Held to the default outbound policy: no loopback, link-local, unspecified or private address. */
    public JdkHttpRequester() {
        this(new OutboundExchange(() -> OutboundPolicy.DEFAULT));
    }

    /** @param outbound where the policy on the addresses a workflow may reach is enforced */
    public JdkHttpRequester(OutboundExchange outbound) {
        this.outbound = outbound;
    }

    @Override
    public HttpAnswer send(HttpCall call, StopSignal stop) {
        OutboundExchange.Outgoing request;
        try {
            request = new OutboundExchange.Outgoing(URI.create(call.url()), call.method(), call.headers(),
                    call.body());
        } catch (IllegalArgumentException e) {
            throw new HttpException("The request cannot be made: " + e.getMessage(), e);
        }
        try {
            HttpResponse<InputStream> response = outbound.send(client(call.connectTimeout(), call.verifyTls()),
                    request, call.readTimeout(), stop);
            byte[] body;
            try (InputStream in = response.body()) {
                body = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, call.maxResponseBytes() + 1));
            }
            if (body.length > call.maxResponseBytes()) {
                throw new HttpException("The response is larger than " + call.maxResponseBytes() / (1024 * 1024)
                        + " MB", null);
            }
            Map<String, List<String>> headers = new LinkedHashMap<>();
            response.headers().map().forEach((name, values) -> {
                if (!name.startsWith(":")) {
                    headers.put(name.toLowerCase(Locale.ROOT), values);
                }
            });
            return new HttpAnswer(response.statusCode(), headers, body);
        } catch (OutboundExchange.RefusedException e) {
            throw new HttpException(e.getMessage(), e);
        } catch (CancellationException e) {
            throw new HttpException("The request was cancelled: the run was stopped", e);
        } catch (ExecutionException e) {
            throw new HttpException(describe(call, e.getCause()), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new HttpException("The request was interrupted", e);
        } catch (HttpException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new HttpException("The request cannot be made: " + e.getMessage(), e);
        } catch (Exception e) {
            // Resolving the host failed, or reading the body broke off (the target hung up or timed out half way).
            throw new HttpException(describe(call, e), e);
        }
    }

    private static String describe(HttpCall call, Throwable cause) {
        if (cause instanceof HttpConnectTimeoutException) {
            return "Connection to " + call.url() + " timed out after " + call.connectTimeout().toSeconds() + "s";
        }
        if (cause instanceof HttpTimeoutException) {
            return "Reading from " + call.url() + " timed out after " + call.readTimeout().toSeconds() + "s";
        }
        if (cause instanceof java.net.UnknownHostException) {
            return "Request to " + call.url() + " failed: unknown host " + cause.getMessage();
        }
        if (cause instanceof IOException) {
            return "Request to " + call.url() + " failed: " + (cause.getMessage() == null
                    ? cause.getClass().getSimpleName() : cause.getMessage());
        }
        return "Request to " + call.url() + " failed: " + cause;
    }

    private HttpClient client(Duration connectTimeout, boolean verifyTls) {
        return clients.computeIfAbsent(connectTimeout.toMillis() + "/" + verifyTls, key -> {
            HttpClient.Builder builder = HttpClient.newBuilder()
                    .connectTimeout(connectTimeout)
                    .followRedirects(HttpClient.Redirect.NEVER);
            if (!verifyTls) {
                builder.sslContext(trustingEveryone());
            }
            return builder.build();
        });
    }

    /** ssl_verify: false asks for it; the node's author chose to trust whatever the server shows. */
    private static SSLContext trustingEveryone() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {new X509TrustManager() {
                @Override
                public void checkClientTrusted(X509Certificate[] chain, String authType) {
                    // Trusted by the node's own choice.
                }

                @Override
                public void checkServerTrusted(X509Certificate[] chain, String authType) {
                    // Trusted by the node's own choice.
                }

                @Override
                public X509Certificate[] getAcceptedIssuers() {
                    return new X509Certificate[0];
                }
            }}, new SecureRandom());
            return context;
        } catch (Exception e) {
            throw new IllegalStateException("the JVM has no TLS", e);
        }
    }
}
