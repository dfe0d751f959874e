package dev.hexaflow.adapters.nodes.net;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpConnectTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.function.Consumer;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * HTTP/1.1 on the calling thread: the request is written and its answer read on the thread that asks, over a
 * socket of its own, with no selector or worker thread between. A streamed answer of a hundred pieces costs the
 * JDK's client three thread hand-offs a piece (its selector, its worker, the reader); here a piece is one read.
 * Connections the server keeps go back to a pool per address once their body was read to its end. A request is
 * sent again only when it could not be written to a kept connection the server had left: never once it was sent,
 * as a model call is paid for. Only direct connections: {@link #direct} tells whether the JVM's proxy settings
 * leave an address to this client.
 */
public final class Http1Client {

    /** A pooled connection idle longer than this is closed rather than used (servers drop theirs sooner). */
    static final Duration IDLE = Duration.ofSeconds(30);
    /** A pooled connection idle longer than this is checked for the server's close before it is used. */
    static final Duration CHECKED_AFTER = Duration.ofSeconds(2);
    /** Idle connections kept per address; more are closed as they come back. */
    private static final int KEPT_PER_ADDRESS = 16;

    private final Duration connectTimeout;
    private final SSLSocketFactory tls;
    private final Map<String, Deque<Http1Connection>> idle = new ConcurrentHashMap<>();

    public Http1Client(Duration connectTimeout) {
        this(connectTimeout, null);
    }

    /** @param tls the factory of TLS sockets; null for the JVM's default context, made at the first https call */
    public Http1Client(Duration connectTimeout, SSLSocketFactory tls) {
        this.connectTimeout = connectTimeout;
        this.tls = tls;
    }

    /** Whether the JVM's proxy settings send {@code uri} directly, so that this client may call it. */
    public static boolean direct(URI uri) {
        ProxySelector proxies = ProxySelector.getDefault();
        if (proxies == null) {
            return true;
        }
        List<Proxy> chosen = proxies.select(uri);
        return chosen.isEmpty() || chosen.stream().allMatch(proxy -> proxy.type() == Proxy.Type.DIRECT);
    }

    /**
     * Posts {@code body} to {@code uri} and answers once the status line and headers came, within
     * {@code firstByte}; the body is read from the answer, on the caller's thread, with no time limit.
     *
     * @param headers the request's headers, none of them {@code Host}, {@code Content-Length} or
     *     {@code Connection}, which this client writes
     * @param breakOff told, once a connection is chosen, what closes it: a caller that gives up (a stopped run)
     *     breaks off the wait for the answer with it, from another thread
     */
    public Http1Response post(URI uri, Map<String, String> headers, byte[] body, Duration firstByte,
            Consumer<Runnable> breakOff) throws IOException {
        byte[] head = head(uri, headers, body.length);
        String address = address(uri);
        Http1Connection pooled = takeIdle(address);
        if (pooled != null) {
            Http1Connection.Lease lease = pooled.lease();
            breakOff.accept(lease::breakOff);
            try {
                return pooled.exchange(lease, head, body, firstByte, this::giveBack);
            } catch (Http1Connection.NotSentException stale) {
                // The server had closed the kept connection: the request never reached it, so it goes again, once.
                pooled.close();
            }
        }
        Http1Connection fresh = connect(uri, address);
        Http1Connection.Lease lease = fresh.lease();
        breakOff.accept(lease::breakOff);
        return fresh.exchange(lease, head, body, firstByte, this::giveBack);
    }

    /**
     * A kept connection for the address, or null. One idle for more than {@link #CHECKED_AFTER} is first checked for
     * a close the server sent meanwhile (servers drop idle connections after 5 s or more), so that a request is
     * seldom written to a connection the server already left; one it finds closed is dropped.
     */
    private Http1Connection takeIdle(String address) {
        Deque<Http1Connection> connections = idle.get(address);
        if (connections == null) {
            return null;
        }
        for (Http1Connection connection; (connection = connections.pollFirst()) != null; ) {
            long idleFor = System.nanoTime() - connection.idleSince();
            if (idleFor < IDLE.toNanos() && connection.looksOpen()
                    && (idleFor < CHECKED_AFTER.toNanos() || connection.stillOpen())) {
                return connection;
            }
            connection.close();
        }
        return null;
    }

    private void giveBack(Http1Connection connection) {
        Deque<Http1Connection> connections = idle.computeIfAbsent(connection.address(),
                key -> new ConcurrentLinkedDeque<>());
        connections.addFirst(connection);
        while (connections.size() > KEPT_PER_ADDRESS) {
            Http1Connection extra = connections.pollLast();
            if (extra != null) {
                extra.close();
            }
        }
    }

    private Http1Connection connect(URI uri, String address) throws IOException {
        boolean secure = "https".equalsIgnoreCase(uri.getScheme());
        int port = port(uri);
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            Socket plain = socket;
            Deadline deadline = Deadline.closing(plain, connectTimeout);
            try {
                plain.connect(new InetSocketAddress(uri.getHost(), port));
                if (secure) {
                    socket = handshake(plain, uri.getHost(), port);
                }
                if (!deadline.cancel()) {
                    throw new SocketException("connect timed out");
                }
            } catch (IOException e) {
                throw deadline.passed() ? (IOException) new HttpConnectTimeoutException("connect timed out")
                        .initCause(e) : e;
            }
            return new Http1Connection(address, plain, socket);
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    private Socket handshake(Socket plain, String host, int port) throws IOException {
        SSLSocket socket = (SSLSocket) tlsFactory().createSocket(plain, host, port, true);
        SSLParameters parameters = socket.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        if (!host.isEmpty() && !host.contains(":") && !host.matches("[0-9.]+")) {
            parameters.setServerNames(List.of(new SNIHostName(host)));
        }
        socket.setSSLParameters(parameters);
        socket.startHandshake();
        return socket;
    }

    private SSLSocketFactory tlsFactory() throws IOException {
        if (tls != null) {
            return tls;
        }
        try {
            return SSLContext.getDefault().getSocketFactory();
        } catch (NoSuchAlgorithmException e) {
            throw new IOException("no TLS context", e);
        }
    }

    /** The request line and headers, refused where a header would break the request's framing. */
    private static byte[] head(URI uri, Map<String, String> headers, int length) {
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        StringBuilder head = new StringBuilder(256).append("POST ").append(path)
                .append(uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery()).append(" HTTP/1.1\r\n")
                .append("Host: ").append(uri.getHost()).append(uri.getPort() < 0 ? "" : ":" + uri.getPort())
                .append("\r\n");
        headers.forEach((name, value) -> {
            if (!token(name) || value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
                throw new IllegalArgumentException("a request header is not one line: " + name);
            }
            String lower = name.toLowerCase(Locale.ROOT);
            if (lower.equals("host") || lower.equals("content-length") || lower.equals("connection")
                    || lower.equals("transfer-encoding")) {
                throw new IllegalArgumentException("the client writes its own " + name + " header");
            }
            head.append(name).append(": ").append(value).append("\r\n");
        });
        return head.append("Content-Length: ").append(length).append("\r\n\r\n").toString()
                .getBytes(StandardCharsets.UTF_8);
    }

    private static boolean token(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c <= ' ' || c >= 127 || c == ':') {
                return false;
            }
        }
        return true;
    }

    private static String address(URI uri) {
        return uri.getScheme().toLowerCase(Locale.ROOT) + "://" + uri.getHost().toLowerCase(Locale.ROOT) + ":"
                + port(uri);
    }

    private static int port(URI uri) {
        if (uri.getPort() >= 0) {
            return uri.getPort();
        }
        return "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
    }

}
