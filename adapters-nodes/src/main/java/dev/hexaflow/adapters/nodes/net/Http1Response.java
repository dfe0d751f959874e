package dev.hexaflow.adapters.nodes.net;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * An answer of {@link Http1Client}: its status, its headers, and its body as a stream that ends where the answer
 * ends (a chunked body at its last chunk, another at its length, or at the connection's close). Closing the body
 * read to its end gives a connection the server keeps back to the pool; closing it earlier, from any thread,
 * closes the connection, which is also how a read that waits is broken off.
 */
public final class Http1Response implements AutoCloseable {

    private final int status;
    private final List<String[]> headers;
    private final Body body;

    Http1Response(int status, boolean version11, List<String[]> headers, Http1Connection connection,
            Http1Connection.Lease lease, Consumer<Http1Connection> pool) {
        this.status = status;
        this.headers = List.copyOf(headers);
        boolean keeps = version11 && values("connection").noneMatch(value -> value.contains("close"));
        // The body's framing (RFC 9112, 6.3): chunked when chunked is the last coding; another coding, or no
        // length, is read to the close; a length otherwise, the same in every Content-Length.
        List<String> codings = values("transfer-encoding").toList();
        boolean chunked = !codings.isEmpty() && codings.get(codings.size() - 1).strip().endsWith("chunked");
        List<Long> lengths = values("content-length").map(Http1Response::length).distinct().toList();
        if (lengths.size() > 1) {
            throw new IllegalStateException("the server sent two different Content-Length headers");
        }
        long length = status == 204 || status == 304 ? 0 : !codings.isEmpty() || lengths.isEmpty() ? -1
                : lengths.get(0);
        this.body = new Body(connection, lease, pool, chunked ? -2 : length, keeps && (chunked || length >= 0));
    }

    /** Every value of the header, each of a comma-separated list apart, in lower case. */
    private java.util.stream.Stream<String> values(String name) {
        return headers.stream().filter(header -> header[0].equals(name))
                .flatMap(header -> java.util.Arrays.stream(header[1].split(",")))
                .map(value -> value.strip().toLowerCase(Locale.ROOT));
    }

    public int statusCode() {
        return status;
    }

    /** The header's first value; names are matched in any case. */
    public Optional<String> header(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return headers.stream().filter(header -> header[0].equals(lower)).map(header -> header[1]).findFirst();
    }

    /** Whether the connection goes back to the pool once the body was read to its end. */
    public boolean keepsConnection() {
        return body.reusable;
    }

    public InputStream body() {
        return body;
    }

    /** Closes the body: see the class's comment. */
    @Override
    public void close() {
        body.close();
    }

    private static long length(String value) {
        try {
            long length = Long.parseLong(value.strip());
            if (length >= 0) {
                return length;
            }
        } catch (NumberFormatException e) {
            // Told below.
        }
        throw new IllegalStateException("the server sent a Content-Length that is no length: " + value);
    }

    /** The body: chunked ({@code left} counts the current chunk), of a length, or up to the close ({@code -1}). */
    private static final class Body extends InputStream {
        private static final int MOST_CHUNK_LINE = 1024;

        private final Http1Connection connection;
        private final Http1Connection.Lease lease;
        private final Consumer<Http1Connection> pool;
        private final boolean chunked;
        private final boolean reusable;
        private final AtomicBoolean closed = new AtomicBoolean();
        private long left;
        /** Volatile: a close from another thread that finds the body ended sees the reads before it. */
        private volatile boolean ended;
        private boolean afterChunk;

        Body(Http1Connection connection, Http1Connection.Lease lease, Consumer<Http1Connection> pool, long length,
                boolean reusable) {
            this.connection = connection;
            this.lease = lease;
            this.pool = pool;
            this.chunked = length == -2;
            this.left = chunked ? 0 : length;
            this.ended = length == 0;
            this.reusable = reusable;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int read = read(one, 0, 1);
            return read < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            if (length == 0) {
                return 0;
            }
            if (ended) {
                return -1;
            }
            if (left == -1) {
                int read = connection.read(buffer, offset, length);
                ended = read < 0;
                return read;
            }
            if (chunked && left == 0 && !nextChunk()) {
                return -1;
            }
            int read = connection.read(buffer, offset, (int) Math.min(length, left));
            if (read < 0) {
                throw new EOFException("the server closed the connection in the middle of the body");
            }
            left -= read;
            ended = !chunked && left == 0;
            afterChunk = chunked && left == 0;
            return read;
        }

        /** Reads the next chunk's size; false at the last chunk, whose trailers are read too. */
        private boolean nextChunk() throws IOException {
            if (afterChunk && !line().isEmpty()) {
                throw new IOException("the server's chunk did not end where its size said");
            }
            afterChunk = false;
            String size = line();
            int extension = size.indexOf(';');
            try {
                left = Long.parseLong((extension < 0 ? size : size.substring(0, extension)).strip(), 16);
            } catch (NumberFormatException e) {
                throw new IOException("the server sent a chunk size that is none", e);
            }
            if (left < 0) {
                throw new IOException("the server sent a chunk size that is none");
            }
            if (left == 0) {
                while (!line().isEmpty()) {
                    // A trailer: nothing here reads them.
                }
                ended = true;
            }
            return !ended;
        }

        private String line() throws IOException {
            StringBuilder line = new StringBuilder();
            for (int b = connection.read(); b != '\n'; b = connection.read()) {
                if (b < 0) {
                    throw new EOFException("the server closed the connection in the middle of the body");
                }
                if (line.length() == MOST_CHUNK_LINE) {
                    throw new IOException("the server sent a chunk line longer than " + MOST_CHUNK_LINE + " bytes");
                }
                line.append((char) b);
            }
            return line.length() > 0 && line.charAt(line.length() - 1) == '\r'
                    ? line.substring(0, line.length() - 1) : line.toString();
        }

        @Override
        public int available() throws IOException {
            if (ended || closed.get()) {
                return 0;
            }
            int buffered = connection.buffered();
            return left < 0 ? buffered : (int) Math.min(buffered, left);
        }

        @Override
        public void close() {
            if (!closed.compareAndSet(false, true)) {
                return;
            }
            lease.end(ended && reusable, pool);
        }
    }
}
