package dev.hexaflow.domain.tool;

import java.util.Locale;

/**
 * The secret an api tool's requests carry, as Dify's api tool credentials ({@code auth_type} none,
 * {@code api_key_header} or {@code api_key_query}): sent only to the server the bound OpenAPI document names, never
 * shown back. {@link #toString()} leaves the value out, so that a log or an error message cannot carry it.
 */
public sealed interface ApiCredential {

    /** The longest header, parameter or value kept: a key, not a payload. */
    int MAX_TEXT = 8192;

    /** Dify's {@code auth_type} for this kind of credential. */
    String type();

    /**
     * The credential its fields name, as the admin API, the command line and a bindings file give them.
     *
     * @param type   {@code none}, {@code api_key_header} or {@code api_key_query} (Dify's {@code auth_type}; its
     *               older {@code api_key} is the header)
     * @param header the header, for {@code api_key_header}; {@code Authorization} when null
     * @param prefix bearer, basic or custom, for {@code api_key_header}; custom (none) when null
     * @param param  the query parameter, for {@code api_key_query}; {@code key} when null
     * @throws IllegalArgumentException naming the field that is wrong or does not go with the type
     */
    static ApiCredential of(String type, String header, String prefix, String param, String value) {
        String kind = type == null ? "" : type.strip();
        switch (kind) {
            case "none" -> {
                if (header != null || prefix != null || param != null || value != null) {
                    throw new IllegalArgumentException("auth of type none takes no header, prefix, param or value");
                }
                return new None();
            }
            case "api_key_header", "api_key" -> {
                if (param != null) {
                    throw new IllegalArgumentException("param goes with api_key_query, not with api_key_header");
                }
                return new ApiKeyHeader(header, prefix == null ? Prefix.CUSTOM : Prefix.of(prefix), value);
            }
            case "api_key_query" -> {
                if (header != null || prefix != null) {
                    throw new IllegalArgumentException("header and prefix go with api_key_header, not with "
                            + "api_key_query");
                }
                return new ApiKeyQuery(param, value);
            }
            default -> throw new IllegalArgumentException("auth type must be none, api_key_header or api_key_query, "
                    + "not '" + type + "'");
        }
    }

    /** No credential: Dify's {@code auth_type: none}. */
    record None() implements ApiCredential {
        @Override
        public String type() {
            return "none";
        }
    }

    /** What Dify writes before a header's value: {@code Bearer }, {@code Basic }, or nothing (custom). */
    enum Prefix {
        BEARER("Bearer "), BASIC("Basic "), CUSTOM("");

        private final String text;

        Prefix(String text) {
            this.text = text;
        }

        /** The prefix as Dify's {@code api_key_header_prefix} names it: bearer, basic, custom. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** @throws IllegalArgumentException naming the prefixes there are */
        public static Prefix of(String label) {
            for (Prefix prefix : values()) {
                if (prefix.label().equals(label == null ? "" : label.strip().toLowerCase(Locale.ROOT))) {
                    return prefix;
                }
            }
            throw new IllegalArgumentException("prefix must be bearer, basic or custom, not '" + label + "'");
        }
    }

    /** A key in a header ({@code Authorization} by default), after its prefix, as Dify's {@code api_key_header}. */
    record ApiKeyHeader(String header, Prefix prefix, String value) implements ApiCredential {
        public ApiKeyHeader {
            header = header == null || header.isBlank() ? "Authorization" : header.strip();
            if (header.length() > 256 || !header.chars().allMatch(c -> c > 32 && c < 127 && c != ':')) {
                throw new IllegalArgumentException("header: '" + header + "' is not a header name");
            }
            prefix = prefix == null ? Prefix.CUSTOM : prefix;
            value = secret(value);
        }

        @Override
        public String type() {
            return "api_key_header";
        }

        /** The header's value as sent: Dify adds its prefix to a non-empty key only. */
        public String headerValue() {
            return value.isEmpty() ? value : prefix.text + value;
        }

        @Override
        public String toString() {
            return "ApiKeyHeader[header=" + header + ", prefix=" + prefix.label() + ", value=(secret)]";
        }
    }

    /** A key in a query parameter ({@code key} by default), as Dify's {@code api_key_query}. */
    record ApiKeyQuery(String param, String value) implements ApiCredential {
        public ApiKeyQuery {
            param = param == null || param.isBlank() ? "key" : param.strip();
            if (param.length() > 256) {
                throw new IllegalArgumentException("param must be at most 256 characters");
            }
            value = secret(value);
        }

        @Override
        public String type() {
            return "api_key_query";
        }

        @Override
        public String toString() {
            return "ApiKeyQuery[param=" + param + ", value=(secret)]";
        }
    }

    private static String secret(String value) {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("value must be the key, not empty");
        }
        if (value.length() > MAX_TEXT || value.contains("\r") || value.contains("\n")) {
            throw new IllegalArgumentException("value must be one line of at most " + MAX_TEXT + " characters");
        }
        return value;
    }
}
