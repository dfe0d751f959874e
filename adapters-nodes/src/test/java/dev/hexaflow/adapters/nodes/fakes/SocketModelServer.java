package dev.hexaflow.adapters.nodes.fakes;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An OpenAI-compatible chat-completions endpoint on loopback written on a bare socket, so that a test sees its
 * connections: it counts those it accepted and the requests it answered. Each request is answered with the same
 * streamed completion ({@code pieces}, then the usage and {@code [DONE]}), either keeping the connection (chunked
 * transfer encoding, as most servers) or closing it after each stream ({@code Connection: close}, the end of the
 * stream marked by the close). A kept connection's body ends a moment after {@code [DONE]}, in a packet of its own.
 */
public final class SocketModelServer implements AutoCloseable {

    private final ServerSocket server;
    private final boolean keep;
    /** Whether a kept connection's body is left open after {@code [DONE]}, never ended. */
    private final boolean hold;
    private final List<String> pieces;
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger requests = new AtomicInteger();

    private SocketModelServer(boolean keep, List<String> pieces) {
        this(keep, false, pieces);
    }

    private SocketModelServer(boolean keep, boolean hold, List<String> pieces) {
        this.keep = keep;
        this.hold = hold;
        this.pieces = List.copyOf(pieces);
        try {
            server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        daemon(this::accept);
    }

    /** A server that keeps its connections for the next request. */
    public static SocketModelServer keepingConnections(List<String> pieces) {
        return new SocketModelServer(true, pieces);
    }

    /** A server that closes the connection after each streamed answer. */
    public static SocketModelServer closingEachStream(List<String> pieces) {
        return new SocketModelServer(false, pieces);
    }

    /** A server that keeps its connection and never ends the body after {@code [DONE]} (for half a minute). */
    public static SocketModelServer holdingAfterDone(List<String> pieces) {
        return new SocketModelServer(true, true, pieces);
    }

    public URI baseUrl() {
        return URI.create("http://127.0.0.1:" + server.getLocalPort() + "/v1");
    }

    /** The connections accepted so far. */
    public int connections() {
        return connections.get();
    }

    /** The requests answered so far. */
    public int requests() {
        return requests.get();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                connections.incrementAndGet();
                daemon(() -> serve(socket));
            } catch (IOException closed) {
                return;
            }
        }
    }

    private static void daemon(Runnable work) {
        Thread thread = new Thread(work, "socket-model-server");
        thread.setDaemon(true);
        thread.start();
    }

    private void serve(Socket socket) {
        try (socket) {
            socket.setTcpNoDelay(true);
            InputStream in = new BufferedInputStream(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            while (readRequest(in)) {
                requests.incrementAndGet();
                answer(out);
                if (!keep) {
                    return;
                }
            }
        } catch (IOException e) {
            // The client went away.
        }
    }

    /** Reads one request's head and body; false at the end of the connection. */
    private static boolean readRequest(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int last4 = 0;
        int b;
        while ((b = in.read()) >= 0) {
            head.write(b);
            last4 = last4 << 8 | b;
            if (last4 == 0x0d0a0d0a) {
                break;
            }
        }
        if (b < 0) {
            return false;
        }
        int length = 0;
        for (String line : head.toString(StandardCharsets.ISO_8859_1).split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(15).strip());
            }
        }
        in.readNBytes(length);
        return true;
    }

    private void answer(OutputStream out) throws IOException {
        out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                + (keep ? "Transfer-Encoding: chunked\r\n\r\n" : "Connection: close\r\n\r\n"))
                .getBytes(StandardCharsets.ISO_8859_1));
        for (String piece : pieces) {
            event(out, "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + piece + "\"},\"finish_reason\":null}]}");
        }
        event(out, "{\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}");
        event(out, "{\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":" + pieces.size()
                + ",\"total_tokens\":" + (3 + pieces.size()) + "}}");
        send(out, "data: [DONE]\n\n");
        if (hold) {
            sleep(30_000);
        }
        if (keep) {
            // As a server whose framework ends the body once the handler has returned: the end comes apart.
            sleep(20);
            out.write("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        }
        out.flush();
    }

    private void event(OutputStream out, String json) throws IOException {
        send(out, "data: " + json + "\n\n");
    }

    private void send(OutputStream out, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (keep) {
            out.write((Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.write(bytes);
            out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
        } else {
            out.write(bytes);
        }
        out.flush();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // Closing anyway.
        }
    }
}
