package dev.hexaflow.adapters.nodes.net;

import dev.hexaflow.workflow.engine.StopSignal;
import dev.hexaflow.domain.net.IpAddress;
import dev.hexaflow.domain.net.Ipv4Embedding;
import dev.hexaflow.domain.net.OutboundDecision;
import dev.hexaflow.domain.net.OutboundPolicy;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * HTTP exchanges whose target a workflow or a client decides, held to the outbound policy: the URL's host is
 * resolved and every address it resolves to is checked before the request goes out, and redirects are followed
 * here, hop by hop, each target checked the same way, at most {@link #MAX_REDIRECTS} of them (httpx's default,
 * which Dify's client uses). The client given must not follow redirects itself.
 *
 * <p>The JDK client connects to the name's address from the JVM's lookup cache (30 s by default,
 * {@code networkaddress.cache.ttl}), the same lookup checked here a moment before; a name cannot answer one
 * address to the check and another to the connection within that time.
 */
public final class OutboundExchange {

    /** httpx's DEFAULT_MAX_REDIRECTS. */
    public static final int MAX_REDIRECTS = 20;

    private static final Set<String> JDK_HEADERS = Set.of("host", "content-length", "connection", "expect",
            "upgrade", "transfer-encoding", "keep-alive", "te", "trailer");
    private static final Set<Integer> REDIRECTS = Set.of(301, 302, 303, 307, 308);

    private final Supplier<OutboundPolicy> policy;

    /** @param policy the policy in force when a request is made (the server adds its own origin once it listens) */
    public OutboundExchange(Supplier<OutboundPolicy> policy) {
        this.policy = Objects.requireNonNull(policy);
    }

    /**
     * A request, or one hop of it; the headers named in {@code originBound} (any case) are meant for the first
     * hop's origin only, and are dropped, like Authorization, when a redirect leaves it.
     */
    public record Outgoing(URI uri, String method, List<Map.Entry<String, String>> headers, byte[] body,
            Set<String> originBound) {
        public Outgoing {
            headers = List.copyOf(headers);
            body = body == null ? new byte[0] : body;
            originBound = originBound == null ? Set.of() : originBound.stream()
                    .map(name -> name.toLowerCase(Locale.ROOT))
                    .collect(java.util.stream.Collectors.toUnmodifiableSet());
        }

        /** A request whose headers, but Authorization and Cookie, may follow a redirect anywhere. */
        public Outgoing(URI uri, String method, List<Map.Entry<String, String>> headers, byte[] body) {
            this(uri, method, headers, body, Set.of());
        }
    }

    /** A target the policy refuses, or a redirect that cannot be followed; its message is for the node's error. */
    public static final class RefusedException extends RuntimeException {
        public RefusedException(String message) {
            super(message);
        }
    }

    /**
     * Sends the request and follows its redirects; answers the last response with its body unread.
     *
     * @throws RefusedException     when a target's address is not allowed, or the redirects go on too long
     * @throws ExecutionException   when the client failed (its cause says how)
     * @throws UnknownHostException when a host name does not resolve
     */
    public HttpResponse<InputStream> send(HttpClient client, Outgoing first, Duration timeout, StopSignal stop)
            throws InterruptedException, ExecutionException, IOException {
        AtomicReference<CompletableFuture<?>> current = new AtomicReference<>();
        try (AutoCloseable cancel = stop.onStop(() -> {
            CompletableFuture<?> exchange = current.get();
            if (exchange != null) {
                exchange.cancel(true);
            }
        })) {
            Outgoing hop = first;
            for (int redirects = 0; ; redirects++) {
                check(hop.uri());
                if (stop.isStopped()) {
                    throw new java.util.concurrent.CancellationException("stopped");
                }
                CompletableFuture<HttpResponse<InputStream>> exchange = client.sendAsync(request(hop, timeout),
                        HttpResponse.BodyHandlers.ofInputStream());
                current.set(exchange);
                if (stop.isStopped()) {
                    exchange.cancel(true);
                }
                HttpResponse<InputStream> response = exchange.get();
                String location = response.headers().firstValue("location").orElse(null);
                if (!REDIRECTS.contains(response.statusCode()) || location == null) {
                    return withBoundedBody(response, timeout, stop);
                }
                response.body().close();
                if (redirects == MAX_REDIRECTS) {
                    throw new RefusedException("Exceeded maximum allowed redirects (" + MAX_REDIRECTS + ").");
                }
                hop = next(hop, response.statusCode(), location);
            }
        } catch (InterruptedException | ExecutionException | IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            // Only closing the stop handle throws a checked Exception; it cannot fail.
            throw new IllegalStateException(e);
        }
    }

    /**
     * Resolves the URI's host and checks every address against the policy.
     *
     * @throws RefusedException     naming the first address refused, and why
     * @throws UnknownHostException when the name does not resolve
     */
    public void check(URI uri) throws UnknownHostException {
        String host = uri.getHost();
        if (host == null || host.isEmpty()) {
            throw new RefusedException("The URL " + uri + " has no host");
        }
        String name = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        int port = uri.getPort() >= 0 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
        OutboundPolicy rules = policy.get();
        for (InetAddress resolved : InetAddress.getAllByName(name)) {
            IpAddress address = IpAddress.of(resolved.getAddress());
            OutboundDecision decision = rules.decide(name, address, port);
            if (decision instanceof OutboundDecision.Reserved reserved) {
                throw new RefusedException("The address " + named(reserved.address(), address) + " of host " + host
                        + " is not allowed for outbound requests (" + reserved.kind().label()
                        + "); allow it with HEXAFLOW_OUTBOUND_ALLOW");
            }
            if (decision instanceof OutboundDecision.Denied denied) {
                throw new RefusedException("The address " + named(denied.address(), address) + " of host " + host
                        + " is not allowed for outbound requests (denied by '" + denied.rule()
                        + "' in HEXAFLOW_OUTBOUND_DENY)");
            }
        }
    }

    /** The address refused, and the IPv6 address that carries it when that is what the host resolved to. */
    private static String named(IpAddress refused, IpAddress resolved) {
        if (refused.equals(resolved)) {
            return refused.toString();
        }
        String form = Ipv4Embedding.in(resolved).stream().filter(carried -> carried.ipv4().equals(refused))
                .map(carried -> carried.form().label()).findFirst().orElse("IPv4");
        return refused + " (carried by " + resolved + " as " + form + ")";
    }

    private static HttpRequest request(Outgoing hop, Duration timeout) {
        boolean bodyless = hop.body().length == 0 && !List.of("POST", "PUT", "PATCH").contains(hop.method());
        HttpRequest.Builder builder = HttpRequest.newBuilder(hop.uri()).timeout(timeout)
                .method(hop.method(), bodyless ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(hop.body()));
        for (Map.Entry<String, String> header : hop.headers()) {
            if (!JDK_HEADERS.contains(header.getKey().toLowerCase(Locale.ROOT))) {
                builder.header(header.getKey(), header.getValue());
            }
        }
        TraceHeaders.addTo(builder);
        return builder.build();
    }

    /**
     * The next hop as httpx makes it: 303 (and 301/302 after a POST) becomes a GET without a body; 307 and 308
     * keep method and body; the Authorization header and the origin-bound ones are not sent to another origin, a
     * Cookie header to none.
     */
    private static Outgoing next(Outgoing hop, int status, String location) {
        URI target;
        try {
            target = hop.uri().resolve(URI.create(location.strip()));
        } catch (IllegalArgumentException e) {
            throw new RefusedException("The redirect to '" + location + "' is not a URL");
        }
        String scheme = target.getScheme() == null ? "" : target.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new RefusedException("The redirect to '" + location + "' is not an http or https URL");
        }
        String method = hop.method();
        byte[] body = hop.body();
        boolean toGet = (status == 303 && !method.equals("HEAD")) || ((status == 301 || status == 302)
                && method.equals("POST"));
        List<Map.Entry<String, String>> headers = new ArrayList<>(hop.headers());
        if (toGet) {
            method = "GET";
            body = new byte[0];
        }
        headers.removeIf(header -> header.getKey().equalsIgnoreCase("cookie"));
        if (!sameOrigin(hop.uri(), target)) {
            headers.removeIf(header -> header.getKey().equalsIgnoreCase("authorization")
                    || hop.originBound().contains(header.getKey().toLowerCase(Locale.ROOT)));
        }
        return new Outgoing(target, method, headers, body, hop.originBound());
    }

    private static boolean sameOrigin(URI a, URI b) {
        return Objects.equals(lower(a.getScheme()), lower(b.getScheme())) && Objects.equals(lower(a.getHost()),
                lower(b.getHost())) && a.getPort() == b.getPort();
    }

    private static String lower(String text) {
        return text == null ? null : text.toLowerCase(Locale.ROOT);
    }

    /** The answer with its body read against the same timeout (counted from its headers) and the stop. */
    private static HttpResponse<InputStream> withBoundedBody(HttpResponse<InputStream> response, Duration timeout,
            StopSignal stop) {
        InputStream body = BoundedBody.of(response.body(), timeout, stop);
        return new HttpResponse<>() {
            @Override
            public int statusCode() {
                return response.statusCode();
            }

            @Override
            public HttpRequest request() {
                return response.request();
            }

            @Override
            public java.util.Optional<HttpResponse<InputStream>> previousResponse() {
                return response.previousResponse();
            }

            @Override
            public java.net.http.HttpHeaders headers() {
                return response.headers();
            }

            @Override
            public InputStream body() {
                return body;
            }

            @Override
            public java.util.Optional<javax.net.ssl.SSLSession> sslSession() {
                return response.sslSession();
            }

            @Override
            public URI uri() {
                return response.uri();
            }

            @Override
            public HttpClient.Version version() {
                return response.version();
            }
        };
    }
}
