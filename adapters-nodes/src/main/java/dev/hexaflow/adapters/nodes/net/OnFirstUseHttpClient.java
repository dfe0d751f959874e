package dev.hexaflow.adapters.nodes.net;

import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * A JDK HTTP client built by its first call, then kept for every later one. Building one starts its selector
 * thread and loads the TLS context with the JDK's trusted certificates; a server holds a dozen adapters that each
 * keep a client, most of which a given deployment never calls (BENCHMARKS.md: a start that built them all had
 * fourteen idle selector threads), so each is built when its adapter first calls out.
 */
public final class OnFirstUseHttpClient extends HttpClient {

    private final HttpClient.Builder builder;
    private volatile HttpClient client;

    private OnFirstUseHttpClient(HttpClient.Builder builder) {
        this.builder = builder;
    }

    /** A client that {@code builder} builds on the first call; the builder is this client's from now on. */
    public static HttpClient of(HttpClient.Builder builder) {
        return new OnFirstUseHttpClient(builder);
    }

    private HttpClient client() {
        HttpClient built = client;
        if (built == null) {
            synchronized (this) {
                built = client;
                if (built == null) {
                    built = builder.build();
                    client = built;
                }
            }
        }
        return built;
    }

    @Override
    public Optional<CookieHandler> cookieHandler() {
        return client().cookieHandler();
    }

    @Override
    public Optional<Duration> connectTimeout() {
        return client().connectTimeout();
    }

    @Override
    public Redirect followRedirects() {
        return client().followRedirects();
    }

    @Override
    public Optional<ProxySelector> proxy() {
        return client().proxy();
    }

    @Override
    public SSLContext sslContext() {
        return client().sslContext();
    }

    @Override
    public SSLParameters sslParameters() {
        return client().sslParameters();
    }

    @Override
    public Optional<Authenticator> authenticator() {
        return client().authenticator();
    }

    @Override
    public Version version() {
        return client().version();
    }

    @Override
    public Optional<Executor> executor() {
        return client().executor();
    }

    @Override
    public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler)
            throws IOException, InterruptedException {
        return client().send(request, handler);
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request,
            HttpResponse.BodyHandler<T> handler) {
        return client().sendAsync(request, handler);
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request,
            HttpResponse.BodyHandler<T> handler, HttpResponse.PushPromiseHandler<T> pushPromiseHandler) {
        return client().sendAsync(request, handler, pushPromiseHandler);
    }
}
