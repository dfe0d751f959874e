package dev.hexaflow.domain.trigger;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds a {@link WebhookCall} as the HTTP adapter would, with safe defaults: no headers, query or body. */
final class TestCall {

    private final String method;
    private final Map<String, List<String>> headers = new LinkedHashMap<>();
    private final Map<String, List<String>> query = new LinkedHashMap<>();
    private Object body;
    private Map<String, Object> files = Map.of();
    private byte[] raw = new byte[0];

    private TestCall(String method) {
        this.method = method;
    }

    static TestCall of(String method) {
        return new TestCall(method);
    }

    TestCall header(String name, String... values) {
        headers.put(name, List.of(values));
        return this;
    }

    TestCall contentType(String value) {
        return header("Content-Type", value);
    }

    TestCall query(String name, String... values) {
        query.put(name, List.of(values));
        return this;
    }

    TestCall body(Object parsed) {
        body = parsed;
        return this;
    }

    TestCall files(Map<String, Object> stored) {
        files = stored;
        return this;
    }

    TestCall raw(String text) {
        raw = text.getBytes(StandardCharsets.UTF_8);
        return this;
    }

    WebhookCall build() {
        return new WebhookCall(method, null, headers, query, body, files, raw);
    }
}
