package dev.hexaflow.domain.trigger;

import dev.hexaflow.domain.trigger.WebhookSpec.Parameter;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Dify's handling of one webhook call before its run is queued ({@code WebhookService}, steps 3 to 8): the
 * call's data extracted as Dify extracts it, then its method, content type, required headers, query parameters
 * and body checked against the trigger, with configured values converted.
 */
final class WebhookRequestCheck {

    private final WebhookSpec spec;

    WebhookRequestCheck(WebhookSpec spec) {
        this.spec = spec;
    }

    Map<String, Object> webhookData(WebhookCall call) {
        Map<String, String> headers = headersAsFlaskGivesThem(call.headers());
        Map<String, Object> query = firstValues(call.query());
        checkMethod(call.method());
        checkContentType(call.mediaType());
        checkRequiredHeaders(headers);
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("method", call.method().toUpperCase(Locale.ROOT));
        data.put("headers", Collections.unmodifiableMap(headers));
        data.put("query_params", processedQuery(query));
        data.put("body", processedBody(rawBody(call)));
        data.put("files", spec.contentType() == WebhookContentType.FORM_DATA ? call.files() : Map.of());
        return Collections.unmodifiableMap(data);
    }

    private void checkMethod(String requestMethod) {
        String expected = spec.method().name();
        String actual = requestMethod.toUpperCase(Locale.ROOT);
        if (!expected.equals(actual)) {
            throw WebhookRefusal.badRequest("HTTP method mismatch. Expected " + expected + ", got " + actual);
        }
    }

    private void checkContentType(String mediaType) {
        String expected = spec.contentType().wireName();
        if (!expected.equals(mediaType)) {
            throw WebhookRefusal.badRequest("Content-type mismatch. Expected " + expected + ", got " + mediaType);
        }
    }

    /** A required header is found in any case, and with '-' and '_' taken as the same. */
    private void checkRequiredHeaders(Map<String, String> headers) {
        List<String> present = headers.keySet().stream().map(WebhookRequestCheck::looseHeaderName).toList();
        for (Parameter header : spec.headers()) {
            if (header.required() && !present.contains(looseHeaderName(header.name()))) {
                throw WebhookRefusal.badRequest("Required header missing: " + header.name());
            }
        }
    }

    private static String looseHeaderName(String name) {
        return name.replace('-', '_').toLowerCase(Locale.ROOT);
    }

    /** The body Dify extracts for the call's content type, which has matched the trigger's by now. */
    private Object rawBody(WebhookCall call) {
        Object body = call.body();
        return switch (spec.contentType()) {
            case JSON, FORM_URLENCODED, FORM_DATA -> body == null ? Map.of() : body;
            case BINARY -> singleton("raw", body);
            case TEXT -> singleton("raw", body instanceof String text ? text : call.rawText());
        };
    }

    private Object processedBody(Object body) {
        WebhookContentType contentType = spec.contentType();
        if (contentType.isRaw()) {
            Object raw = ((Map<?, ?>) body).get("raw");
            if (spec.body().stream().anyMatch(Parameter::required) && WebhookValues.isFalsy(raw)) {
                throw WebhookRefusal.badRequest("Required body content missing for " + contentType.wireName()
                        + " request");
            }
            return body;
        }
        if (!(body instanceof Map<?, ?> fields)) {
            // Dify fails here with a 500 (a list has no items()); the caller sent a body the trigger cannot read.
            throw WebhookRefusal.badRequest("Invalid JSON body: expected an object, got "
                    + WebhookValues.pythonTypeName(body));
        }
        Map<String, Object> raw = stringKeys(fields);
        Map<String, Object> result = new LinkedHashMap<>();
        for (Parameter field : spec.body()) {
            // Dify checks a multipart file nowhere here, and drops a form field of the same name.
            if (field.type() == WebhookParameterType.FILE && contentType == WebhookContentType.FORM_DATA) {
                continue;
            }
            if (field.required() && !raw.containsKey(field.name())) {
                throw WebhookRefusal.badRequest("Required body parameter missing: " + field.name());
            }
            convertIfPresent(raw, field, contentType.isForm(), result);
        }
        return keepUnconfigured(raw, spec.body(), result);
    }

    /** Dify's {@code _process_parameters} for the query string, whose values are strings like a form's. */
    private Map<String, Object> processedQuery(Map<String, Object> raw) {
        Map<String, Object> result = new LinkedHashMap<>();
        for (Parameter param : spec.params()) {
            if (param.required() && !raw.containsKey(param.name())) {
                throw WebhookRefusal.badRequest("Required parameter missing: " + param.name());
            }
            convertIfPresent(raw, param, true, result);
        }
        return keepUnconfigured(raw, spec.params(), result);
    }

    private static void convertIfPresent(Map<String, Object> raw, Parameter parameter, boolean form,
                                         Map<String, Object> result) {
        if (raw.containsKey(parameter.name())) {
            Object value = raw.get(parameter.name());
            result.put(parameter.name(), WebhookValues.convert(parameter.name(), value, parameter.type(), form));
        }
    }

    /** Values nothing configures pass through unchanged, after the configured ones. */
    private static Map<String, Object> keepUnconfigured(Map<String, Object> raw, List<Parameter> configured,
                                                        Map<String, Object> result) {
        Set<String> names = configured.stream().map(Parameter::name).collect(Collectors.toSet());
        raw.forEach((name, value) -> {
            if (!names.contains(name)) {
                result.put(name, value);
            }
        });
        return Collections.unmodifiableMap(result);
    }

    /**
     * The headers as Flask's {@code dict(request.headers)} shows them: a WSGI server cannot tell '-' from '_',
     * and Werkzeug title-cases the name ({@code X-Api-Key}); repeated values are joined.
     */
    private static Map<String, String> headersAsFlaskGivesThem(Map<String, List<String>> headers) {
        Map<String, String> result = new LinkedHashMap<>();
        headers.forEach((name, values) -> {
            if (!values.isEmpty()) {
                result.merge(pythonTitle(name.replace('_', '-')), String.join(", ", values),
                        (first, next) -> first + ", " + next);
            }
        });
        return result;
    }

    /** Python's {@code str.title()}: a letter is upper-cased after a non-letter, lower-cased after a letter. */
    private static String pythonTitle(String name) {
        StringBuilder title = new StringBuilder(name.length());
        boolean afterLetter = false;
        for (char c : name.toCharArray()) {
            title.append(afterLetter ? Character.toLowerCase(c) : Character.toUpperCase(c));
            afterLetter = Character.isLetter(c);
        }
        return title.toString();
    }

    /** Flask's {@code dict(request.args)} keeps a parameter's first value. */
    private static Map<String, Object> firstValues(Map<String, List<String>> query) {
        Map<String, Object> result = new LinkedHashMap<>();
        query.forEach((name, values) -> {
            if (!values.isEmpty()) {
                result.put(name, values.get(0));
            }
        });
        return result;
    }

    private static Map<String, Object> stringKeys(Map<?, ?> fields) {
        Map<String, Object> result = new LinkedHashMap<>();
        fields.forEach((name, value) -> result.put(String.valueOf(name), value));
        return result;
    }

    private static Map<String, Object> singleton(String key, Object value) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put(key, value);
        return Collections.unmodifiableMap(map);
    }
}
