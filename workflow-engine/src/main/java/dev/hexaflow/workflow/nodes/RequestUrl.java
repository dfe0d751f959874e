package dev.hexaflow.workflow.nodes;

import dev.hexaflow.workflow.engine.NodeFailure;
import java.nio.charset.StandardCharsets;

/**
 * An http-request node's URL as Dify checks it and its client (httpx) puts it on the wire: it must start with
 * {@code http://} or {@code https://}; in the path, query and fragment every character outside the set the part
 * allows is percent-encoded as UTF-8 ({@code ?q=hello world} goes out as {@code ?q=hello%20world}), and a
 * {@code %} already followed by two hex digits is kept. httpx leaves {@code | { } ^ `} and backslash unencoded in
 * a query, which the JDK's URI refuses; they are encoded here, and decode to the same text at the target.
 */
final class RequestUrl {

    private static final String UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";
    private static final String SUB_DELIMS = "!$&'()*+,;=";
    private static final String PATH_SAFE = UNRESERVED + SUB_DELIMS + ":@/";
    private static final String QUERY_SAFE = PATH_SAFE + "?[]";

    private RequestUrl() {
    }

    /**
     * The URL to send.
     *
     * @throws NodeFailure InvalidURLError, with Dify's messages, for an empty URL, one that is not http(s), or one
     *         with a control character
     */
    static String of(String rendered) {
        if (rendered.isEmpty()) {
            throw new NodeFailure("InvalidURLError", "url is required", null);
        }
        if (!rendered.startsWith("http://") && !rendered.startsWith("https://")) {
            throw new NodeFailure("InvalidURLError", "url should start with http:// or https://", null);
        }
        if (rendered.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            throw new NodeFailure("InvalidURLError", "Invalid non-printable ASCII character in URL", null);
        }
        int authority = rendered.indexOf("://") + 3;
        int pathStart = firstOf(rendered, "/?#", authority);
        int queryStart = firstOf(rendered, "?#", pathStart);
        int fragmentStart = firstOf(rendered, "#", queryStart);
        StringBuilder url = new StringBuilder(rendered.substring(0, pathStart));
        url.append(quote(rendered.substring(pathStart, queryStart), PATH_SAFE));
        if (queryStart < fragmentStart) {
            url.append('?').append(quote(rendered.substring(queryStart + 1, fragmentStart), QUERY_SAFE));
        }
        if (fragmentStart < rendered.length()) {
            url.append('#').append(quote(rendered.substring(fragmentStart + 1), QUERY_SAFE));
        }
        return url.toString();
    }

    private static int firstOf(String text, String characters, int from) {
        for (int i = from; i < text.length(); i++) {
            if (characters.indexOf(text.charAt(i)) >= 0) {
                return i;
            }
        }
        return text.length();
    }

    private static String quote(String part, String safe) {
        StringBuilder out = new StringBuilder(part.length());
        for (int i = 0; i < part.length(); ) {
            int c = part.codePointAt(i);
            int width = Character.charCount(c);
            if (c == '%' && i + 2 < part.length() && isHex(part.charAt(i + 1)) && isHex(part.charAt(i + 2))) {
                out.append(part, i, i + 3);
                i += 3;
                continue;
            }
            if (c < 0x80 && safe.indexOf(c) >= 0) {
                out.append((char) c);
            } else {
                for (byte b : new String(Character.toChars(c)).getBytes(StandardCharsets.UTF_8)) {
                    out.append('%').append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xf, 16)))
                            .append(Character.toUpperCase(Character.forDigit(b & 0xf, 16)));
                }
            }
            i += width;
        }
        return out.toString();
    }

    private static boolean isHex(char c) {
        return Character.digit(c, 16) >= 0 && c < 0x80;
    }
}
