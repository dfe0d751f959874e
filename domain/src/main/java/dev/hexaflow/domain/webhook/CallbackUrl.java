package dev.hexaflow.domain.webhook;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * Where a run's end is posted: an absolute http or https URL with a host, at most {@link #MAX_LENGTH} characters.
 * Whether its address may be reached is the outbound policy's question, asked when it is posted to.
 */
public record CallbackUrl(String value) {

    /** Dify's longest URL field, and more than any receiver needs. */
    public static final int MAX_LENGTH = 2048;

    public CallbackUrl {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("callback_url must be an http or https URL");
        }
        if (value.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("callback_url must be at most " + MAX_LENGTH + " characters");
        }
        URI uri;
        try {
            uri = new URI(value);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("callback_url is not a URL: " + e.getReason());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null || uri.getHost().isEmpty()) {
            throw new IllegalArgumentException("callback_url must be an http or https URL with a host");
        }
        if (uri.getRawUserInfo() != null) {
            throw new IllegalArgumentException("callback_url must not carry a user name or password");
        }
    }

    /**
     * Who answers posts to this URL: its scheme, host and port (the default one named), in lower case. Posts to
     * one receiver share its speed, whatever their paths.
     */
    public String receiver() {
        URI uri = URI.create(value);
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        int port = uri.getPort() >= 0 ? uri.getPort() : scheme.equals("https") ? 443 : 80;
        return scheme + "://" + uri.getHost().toLowerCase(Locale.ROOT) + ":" + port;
    }

    @Override
    public String toString() {
        return value;
    }
}
