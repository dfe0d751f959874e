package dev.hexaflow.adapters.nodes.model;

import dev.hexaflow.adapters.nodes.net.Http1Client;
import dev.hexaflow.adapters.nodes.net.Http1Response;
import dev.hexaflow.adapters.nodes.net.TraceHeaders;
import dev.hexaflow.workflow.engine.StopSignal;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * How a chat completion is asked for and its answer opened. A model endpoint the JVM reaches directly is called
 * on the node's own thread ({@link Http1Client}): a streamed answer's pieces are read where the node uses them,
 * with no thread between. One behind a proxy the JVM's settings name goes through the JDK's client, which knows
 * proxies. Either way a stopped run breaks off the call, and the answer is its status, its type and its body.
 */
final class ModelCall {

    private final HttpClient viaProxy;
    private final Http1Client direct;

    ModelCall(HttpClient viaProxy, Http1Client direct) {
        this.viaProxy = viaProxy;
        this.direct = direct;
    }

    /**
     * Posts {@code body} and waits at most {@code firstByte} for the answer's head.
     *
     * @throws Unreachable when no answer came (no connection, a refusal, a timeout, a connection closed first)
     */
    Answer post(URI uri, Map<String, String> headers, byte[] body, Duration firstByte, StopSignal stop)
            throws Unreachable, InterruptedException {
        Map<String, String> all = new LinkedHashMap<>(headers);
        TraceHeaders.addTo(all);
        return Http1Client.direct(uri) ? directly(uri, all, body, firstByte, stop)
                : throughProxy(uri, all, body, firstByte, stop);
    }

    private Answer directly(URI uri, Map<String, String> headers, byte[] body, Duration firstByte,
            StopSignal stop) throws Unreachable {
        AtomicReference<Runnable> breakOff = new AtomicReference<>(() -> { });
        try (AutoCloseable cancel = stop.onStop(() -> breakOff.get().run())) {
            Http1Response response = direct.post(uri, headers, body, firstByte, close -> {
                breakOff.set(close);
                if (stop.isStopped()) {
                    close.run();
                }
            });
            return new Answer(response.statusCode(), response.header("Content-Type").orElse(""),
                    response.keepsConnection(), response.body(), stop.onStop(response::close));
        } catch (Exception e) {
            throw new Unreachable(e);
        }
    }

    private Answer throughProxy(URI uri, Map<String, String> headers, byte[] body, Duration firstByte,
            StopSignal stop) throws Unreachable, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(firstByte)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        headers.forEach(request::header);
        CompletableFuture<HttpResponse<InputStream>> exchange = viaProxy.sendAsync(request.build(),
                HttpResponse.BodyHandlers.ofInputStream());
        HttpResponse<InputStream> response;
        try (AutoCloseable cancel = stop.onStop(() -> exchange.cancel(true))) {
            response = exchange.get();
        } catch (InterruptedException e) {
            throw e;
        } catch (ExecutionException e) {
            throw new Unreachable(e.getCause());
        } catch (CancellationException e) {
            throw new Unreachable(e);
        } catch (Exception e) {
            throw new Unreachable(e);
        }
        InputStream answer = response.body();
        return new Answer(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""),
                keepsConnection(response), answer, stop.onStop(() -> closeQuietly(answer)));
    }

    /** Whether the endpoint keeps the connection after this answer: HTTP/1.1 with no {@code Connection: close}. */
    private static boolean keepsConnection(HttpResponse<?> response) {
        return response.version() == HttpClient.Version.HTTP_1_1 && response.headers().allValues("Connection")
                .stream().noneMatch(value -> value.toLowerCase(Locale.ROOT).contains("close"));
    }

    static void closeQuietly(InputStream stream) {
        if (stream != null) {
            try {
                stream.close();
            } catch (IOException e) {
                // Closing is how the read is broken off; nothing else to do.
            }
        }
    }

    /**
     * An answer: its status, its {@code Content-Type}, whether its connection is kept after its body, and the
     * body, which a stop closes until the answer is closed.
     */
    record Answer(int status, String contentType, boolean keepsConnection, InputStream body, AutoCloseable onStop)
            implements AutoCloseable {
        @Override
        public void close() {
            try {
                onStop.close();
            } catch (Exception e) {
                // Only a registration is undone here.
            }
            closeQuietly(body);
        }
    }

    /** No answer came; its cause says why. */
    static final class Unreachable extends Exception {
        private static final long serialVersionUID = 1L;

        Unreachable(Throwable cause) {
            super(cause);
        }
    }
}
