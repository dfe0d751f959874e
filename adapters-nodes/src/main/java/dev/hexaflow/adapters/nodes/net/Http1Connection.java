package dev.hexaflow.adapters.nodes.net;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * One connection of {@link Http1Client}: writes a request, reads its answer's head, and hands the body to an
 * {@link Http1Response}, which gives the connection back when the body was read to its end.
 */
final class Http1Connection {

    /** The most an answer's status line and headers may take, as the JDK's client allows about as much. */
    private static final int MOST_HEAD = 64 * 1024;

    private final String address;
    /** The TCP socket: closing it breaks off any read or write, even one a TLS socket holds a lock for. */
    private final Socket raw;
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    /**
     * What was read from the socket and not yet used. Not a {@link java.io.BufferedInputStream}, which asks the
     * socket how much is waiting (a system call) whenever a read did not fill what was asked.
     */
    private final byte[] buffer = new byte[8192];
    private int position;
    private int limit;
    private long idleSince;

    /** @param socket the socket requests go over: {@code raw} itself, or a TLS socket over it */
    Http1Connection(String address, Socket raw, Socket socket) throws IOException {
        this.address = address;
        this.raw = raw;
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = new BufferedOutputStream(socket.getOutputStream(), 8192);
    }

    /** This connection for one call: see {@link Lease}. */
    Lease lease() {
        return new Lease(this);
    }

    /** The next byte of the answer, or -1 at the connection's end. */
    int read() throws IOException {
        if (position == limit && !fill()) {
            return -1;
        }
        return buffer[position++] & 0xff;
    }

    /** At most {@code length} bytes of the answer, waiting only when none is here yet; -1 at the end. */
    int read(byte[] into, int offset, int length) throws IOException {
        if (position == limit) {
            if (length >= buffer.length) {
                return in.read(into, offset, length);
            }
            if (!fill()) {
                return -1;
            }
        }
        int copied = Math.min(length, limit - position);
        System.arraycopy(buffer, position, into, offset, copied);
        position += copied;
        return copied;
    }

    /** The bytes here without a read. */
    int buffered() {
        return limit - position;
    }

    private boolean fill() throws IOException {
        int read = in.read(buffer, 0, buffer.length);
        if (read <= 0) {
            return false;
        }
        position = 0;
        limit = read;
        return true;
    }

    String address() {
        return address;
    }

    long idleSince() {
        return idleSince;
    }

    boolean looksOpen() {
        return !socket.isClosed() && !socket.isInputShutdown();
    }

    /**
     * Whether an idle connection is still open: a read of at most a millisecond finds nothing. One that finds the
     * connection's end (the server closed it) or a byte (nothing is owed on an idle connection) is not.
     */
    boolean stillOpen() {
        if (position != limit) {
            return false;
        }
        try {
            socket.setSoTimeout(1);
            try {
                fill();
                return false;
            } finally {
                socket.setSoTimeout(0);
            }
        } catch (SocketTimeoutException quiet) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    void close() {
        try {
            raw.close();
            socket.close();
        } catch (IOException e) {
            // Closed either way.
        }
    }

    /**
     * Sends the request and reads its answer's head, both within {@code firstByte}.
     *
     * @throws NotSentException when the request could not be written: the server had closed the connection
     */
    Http1Response exchange(Lease lease, byte[] head, byte[] body, Duration firstByte,
            Consumer<Http1Connection> pool) throws IOException {
        Deadline deadline = Deadline.closing(raw, firstByte);
        try {
            try {
                out.write(head);
                out.write(body);
                out.flush();
            } catch (SocketException e) {
                throw deadline.passed() ? e : new NotSentException(e);
            }
            Head answer;
            do {
                answer = readHead();
            } while (answer.status() >= 100 && answer.status() < 200);
            if (!deadline.cancel()) {
                throw new SocketException("the deadline came as the answer did");
            }
            return new Http1Response(answer.status(), answer.version11(), answer.headers(), this, lease, pool);
        } catch (IOException | RuntimeException e) {
            deadline.cancel();
            close();
            if (deadline.passed()) {
                throw (IOException) new HttpTimeoutException("request timed out").initCause(e);
            }
            throw e;
        }
    }

    /** Marks the connection idle from now, as it goes back to the pool. */
    void idleFromNow() {
        idleSince = System.nanoTime();
    }

    private Head readHead() throws IOException {
        int first = read();
        if (first < 0) {
            throw new java.io.EOFException("HTTP/1.1 header parser received no bytes");
        }
        int[] budget = {MOST_HEAD};
        String status = line(first, budget);
        String[] parts = status.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/1.") || parts[1].length() != 3) {
            throw new IOException("the server answered something other than HTTP/1.1: " + shown(status));
        }
        int code;
        try {
            code = Integer.parseInt(parts[1]);
        } catch (NumberFormatException e) {
            throw new IOException("the server's status line has no status: " + shown(status), e);
        }
        List<String[]> headers = new ArrayList<>();
        for (String line = line(read(), budget); !line.isEmpty(); line = line(read(), budget)) {
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw new IOException("the server sent a header that is not one: " + shown(line));
            }
            headers.add(new String[] {line.substring(0, colon).strip().toLowerCase(Locale.ROOT),
                line.substring(colon + 1).strip()});
        }
        return new Head(code, parts[0].equals("HTTP/1.1"), headers);
    }

    /** One line of the head, from its first byte to its CRLF (or LF), counted against what the head may take. */
    private String line(int first, int[] budget) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(64);
        for (int b = first; ; b = read()) {
            if (b < 0) {
                throw new IOException("the server closed the connection in the middle of its answer's head");
            }
            if (--budget[0] < 0) {
                throw new IOException("the server's answer head is longer than " + MOST_HEAD + " bytes");
            }
            if (b == '\n') {
                break;
            }
            line.write(b);
        }
        String text = line.toString(StandardCharsets.ISO_8859_1);
        return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
    }

    private static String shown(String line) {
        return line.length() > 80 ? line.substring(0, 80) + "…" : line;
    }

    /** An answer's status and headers (names in lower case, in order). */
    private record Head(int status, boolean version11, List<String[]> headers) {
    }

    /** The request could not be written: the server closed the connection first, so it never had the request. */
    static final class NotSentException extends IOException {
        private static final long serialVersionUID = 1L;

        NotSentException(Throwable cause) {
            super("the connection closed before the request was sent", cause);
        }
    }

    /**
     * One call's hold on the connection. Whichever comes first wins: the call's end gives the connection back (or
     * closes it), or a break-off from another thread closes it. A break-off that comes late, when the connection
     * is back in the pool or in another call's hands, does nothing.
     */
    static final class Lease {
        private static final int HELD = 0;
        private static final int GIVEN_BACK = 1;
        private static final int BROKEN_OFF = 2;

        private final Http1Connection connection;
        private final AtomicInteger state = new AtomicInteger(HELD);

        private Lease(Http1Connection connection) {
            this.connection = connection;
        }

        void breakOff() {
            if (state.compareAndSet(HELD, BROKEN_OFF)) {
                connection.close();
            }
        }

        /** Gives the connection back to the pool when it may be reused and is still this call's; closes it else. */
        void end(boolean reusable, Consumer<Http1Connection> pool) {
            if (reusable && connection.buffered() == 0 && state.compareAndSet(HELD, GIVEN_BACK)) {
                connection.idleFromNow();
                pool.accept(connection);
            } else {
                state.set(BROKEN_OFF);
                connection.close();
            }
        }
    }
}
