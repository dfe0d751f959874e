package dev.hexaflow.app.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Text files the jar carries (the help, the version), read whole. */
final class Resources {

    private Resources() {
    }

    /** The resource's text in UTF-8; a jar without it is a broken build, not a user's mistake. */
    static String text(String resource) {
        try (InputStream in = Resources.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the jar lacks " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + resource + " from the jar failed", e);
        }
    }
}
