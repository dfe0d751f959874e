package dev.hexaflow.adapters.nodes.code;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * The last few kilobytes a worker process printed on its standard error, read on a daemon thread of its own, so
 * that the message of a worker that died can say why.
 */
final class PrintedTail {

    private static final int KEEP_CHARS = 4096;

    private final StringBuilder text = new StringBuilder();

    private PrintedTail() {
    }

    /** Starts reading {@code stderr} to its end. */
    static PrintedTail of(InputStream stderr, String threadName) {
        PrintedTail tail = new PrintedTail();
        Thread reader = new Thread(() -> tail.read(stderr), threadName);
        reader.setDaemon(true);
        reader.start();
        return tail;
    }

    private void read(InputStream stderr) {
        byte[] buffer = new byte[4096];
        try (stderr) {
            int n;
            while ((n = stderr.read(buffer)) > 0) {
                synchronized (text) {
                    text.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
                    if (text.length() > KEEP_CHARS) {
                        text.delete(0, text.length() - KEEP_CHARS);
                    }
                }
            }
        } catch (IOException e) {
            // The process is gone; what it printed so far is all there is.
        }
    }

    /** The last line printed, or empty. */
    String lastLine() {
        synchronized (text) {
            return text.toString().strip().lines().reduce((a, b) -> b).orElse("");
        }
    }
}
