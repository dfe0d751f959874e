package dev.hexaflow.domain.trigger;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One inbound call of a webhook trigger, as the HTTP adapter read it.
 *
 * @param method      the HTTP method as sent
 * @param contentType the Content-Type header's value; when null, taken from {@code headers}
 * @param headers     every header with its values, names as sent (looked up in any case)
 * @param query       the query string's parameters with their values
 * @param body        the parsed body: a JSON value for {@code application/json}, the fields
 *                    ({@code Map<String,String>}) for a form, the text for {@code text/plain}, what the adapter
 *                    stored for the bytes (Dify keeps a file mapping) for {@code application/octet-stream};
 *                    null when the body is empty
 * @param files       a multipart call's files by field name, as the adapter stored them; empty otherwise
 * @param rawBody     the body's bytes as received, which signatures are computed over
 */
public record WebhookCall(String method, String contentType, Map<String, List<String>> headers,
                          Map<String, List<String>> query, Object body, Map<String, Object> files,
                          byte[] rawBody) {

    /** Dify reads a call without a Content-Type as JSON. */
    static final String DEFAULT_MEDIA_TYPE = "application/json";

    public WebhookCall {
        if (method == null || method.isBlank()) {
            throw new IllegalArgumentException("a webhook call needs its HTTP method");
        }
        headers = copy(headers);
        query = copy(query);
        files = files == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(files));
        rawBody = rawBody == null ? new byte[0] : rawBody.clone();
        if (contentType == null) {
            contentType = firstValue(headers, "Content-Type").orElse(null);
        }
    }

    private static Map<String, List<String>> copy(Map<String, List<String>> values) {
        Map<String, List<String>> copy = new LinkedHashMap<>();
        if (values != null) {
            values.forEach((name, list) -> {
                if (name != null) {
                    copy.put(name, list == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(list)));
                }
            });
        }
        return Collections.unmodifiableMap(copy);
    }

    /** A copy, so that a caller cannot change the bytes a signature was checked over. */
    @Override
    public byte[] rawBody() {
        return rawBody.clone();
    }

    /** The first value of a header, its name matched in any case. */
    public Optional<String> header(String name) {
        return firstValue(headers, name);
    }

    /** The same call without the header {@code name} (in any case): what a run may keep once it is checked. */
    public WebhookCall withoutHeader(String name) {
        Map<String, List<String>> kept = new LinkedHashMap<>(headers);
        kept.keySet().removeIf(header -> header.equalsIgnoreCase(name));
        return new WebhookCall(method, contentType, kept, query, body, files, rawBody);
    }

    private static Optional<String> firstValue(Map<String, List<String>> values, String name) {
        for (Map.Entry<String, List<String>> entry : values.entrySet()) {
            if (entry.getKey().equalsIgnoreCase(name) && !entry.getValue().isEmpty()) {
                return Optional.ofNullable(entry.getValue().get(0));
            }
        }
        return Optional.empty();
    }

    /**
     * The media type Dify compares with the trigger's: the Content-Type lower-cased, without its parameters;
     * {@code application/json} when the header is absent or empty.
     */
    public String mediaType() {
        if (contentType == null || contentType.isEmpty()) {
            return DEFAULT_MEDIA_TYPE;
        }
        return contentType.toLowerCase(Locale.ROOT).split(";", -1)[0].strip();
    }

    /** The body's bytes as text, as Flask's {@code get_data(as_text=True)} decodes them. */
    String rawText() {
        return new String(rawBody, StandardCharsets.UTF_8);
    }

    /** The bytes by content, not by array identity. */
    @Override
    public boolean equals(Object other) {
        return other instanceof WebhookCall call && method.equals(call.method)
                && Objects.equals(contentType, call.contentType) && headers.equals(call.headers)
                && query.equals(call.query) && Objects.equals(body, call.body)
                && files.equals(call.files) && Arrays.equals(rawBody, call.rawBody);
    }

    @Override
    public int hashCode() {
        return Objects.hash(method, contentType, headers, query, body, files)
                + 31 * Arrays.hashCode(rawBody);
    }

    /** Neither the body nor its bytes: a call's content can be large and may be private. */
    @Override
    public String toString() {
        return "WebhookCall[method=" + method + ", contentType=" + contentType + ", headers=" + headers.keySet()
                + ", query=" + query.keySet() + ", bodyBytes=" + rawBody.length + ", files=" + files.keySet() + "]";
    }
}
