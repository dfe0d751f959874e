package dev.hexaflow.domain.trigger;

import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.InvalidNodeDataException;
import java.time.Duration;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A {@code trigger-webhook} node's settings as Dify defines them ({@code WebhookData}): which calls it accepts,
 * what its run sees of them, and what the caller is answered. Bad settings throw
 * {@link InvalidNodeDataException} naming the field as the DSL spells it.
 *
 * @param statusCode   the status every accepted call is answered with (Dify never waits for the run)
 * @param responseBody the text of that answer, see {@link #response()}
 * @param asyncMode    as the editor exports it; Dify only runs webhooks asynchronously
 * @param timeout      how long a run the call started may take
 */
public record WebhookSpec(WebhookMethod method, WebhookContentType contentType, List<Parameter> headers,
                          List<Parameter> params, List<Parameter> body, int statusCode, String responseBody,
                          boolean asyncMode, Duration timeout) {

    /** The output that holds the whole {@code webhook_data}; no parameter may take its name. */
    public static final String RAW_OUTPUT = "_webhook_raw";

    /** A configured header, query parameter or body field. */
    public record Parameter(String name, WebhookParameterType type, boolean required) {

        public Parameter {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("a webhook parameter needs a name");
            }
            Objects.requireNonNull(type, "type");
        }
    }

    /**
     * What Dify answers an accepted call: either {@code body}, a JSON object, or {@code jsonText}, the
     * trigger's response text to be sent as the JSON it looks like (the caller parses it).
     */
    public record Response(int status, Map<String, Object> body, String jsonText) {

        public Response {
            if ((body == null) == (jsonText == null)) {
                throw new IllegalArgumentException("a webhook response has either a body or a JSON text");
            }
        }

        public boolean isJsonText() {
            return jsonText != null;
        }

        /** Dify's answer when {@code jsonText} does not parse as JSON: the text as the message. */
        public Map<String, Object> fallbackBody() {
            return isJsonText() ? Map.of("message", jsonText) : body;
        }
    }

    public WebhookSpec {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(contentType, "content_type");
        headers = List.copyOf(headers);
        params = List.copyOf(params);
        body = List.copyOf(body);
        responseBody = responseBody == null ? "" : responseBody;
        // An informational status (1xx) answers nothing final: a webhook's caller would wait for another answer.
        if (statusCode < 200 || statusCode > 599) {
            throw new InvalidNodeDataException("status_code", "must be between 200 and 599, was " + statusCode);
        }
        if (timeout == null || timeout.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new InvalidNodeDataException("timeout", "must be at least 1 second");
        }
        checkOutputNames(headers, params, body);
    }

    /** Reads the node's {@code data}, with Dify's defaults for what it leaves out. */
    public static WebhookSpec of(DataTree data) {
        return WebhookSpecReader.read(data);
    }

    /** The output a header becomes: Dify's editor turns '-' into '_' so that it is a variable name. */
    public static String headerOutputName(String headerName) {
        return headerName.replace('-', '_');
    }

    /** The editor refuses two parameters with the same output, and one taking the raw request's. */
    private static void checkOutputNames(List<Parameter> headers, List<Parameter> params, List<Parameter> body) {
        Set<String> seen = new HashSet<>();
        checkOutputNames("headers", headers.stream().map(p -> headerOutputName(p.name())).toList(), seen);
        checkOutputNames("params", params.stream().map(Parameter::name).toList(), seen);
        checkOutputNames("body", body.stream().map(Parameter::name).toList(), seen);
    }

    private static void checkOutputNames(String list, List<String> names, Set<String> seen) {
        for (int i = 0; i < names.size(); i++) {
            String field = list + "[" + i + "].name";
            if (names.get(i).equals(RAW_OUTPUT)) {
                throw new InvalidNodeDataException(field, "must not be " + RAW_OUTPUT + ", the raw request's output");
            }
            if (!seen.add(names.get(i))) {
                throw new InvalidNodeDataException(field, "repeats the output name '" + names.get(i) + "'");
            }
        }
    }

    /**
     * Dify's checks of one call (method, content type, required headers, query parameters and body, with
     * configured values converted), answering its {@code webhook_data}: {@code method}, {@code headers},
     * {@code query_params}, {@code body} and {@code files}.
     *
     * @throws WebhookRefusal with status 400 and Dify's message when the call does not fit
     */
    public Map<String, Object> webhookData(WebhookCall call) {
        return new WebhookRequestCheck(this).webhookData(call);
    }

    /** Dify's {@code build_workflow_inputs}: what a webhook run starts with. */
    public static Map<String, Object> inputsOf(Map<String, Object> webhookData) {
        Map<String, Object> inputs = new LinkedHashMap<>();
        inputs.put("webhook_data", webhookData);
        inputs.put("webhook_headers", webhookData.getOrDefault("headers", Map.of()));
        inputs.put("webhook_query_params", webhookData.getOrDefault("query_params", Map.of()));
        inputs.put("webhook_body", webhookData.getOrDefault("body", Map.of()));
        return Collections.unmodifiableMap(inputs);
    }

    /**
     * The node's outputs when its run starts, as Dify's node computes them: one per configured header (named
     * with '_' for '-'), query parameter and body field, and {@value #RAW_OUTPUT} holding the whole data. A
     * {@code file} field is left as the value found, for the caller to turn into a file.
     */
    public Map<String, Object> outputs(Map<String, Object> webhookData) {
        Map<String, Object> outputs = new LinkedHashMap<>();
        Map<?, ?> requestHeaders = mapOrEmpty(webhookData.get("headers"));
        Map<String, Object> lowerCased = new LinkedHashMap<>();
        requestHeaders.forEach((name, value) -> lowerCased.put(String.valueOf(name).toLowerCase(Locale.ROOT), value));
        for (Parameter header : headers) {
            Object value = lookUp(requestHeaders, header.name());
            if (value == null) {
                value = lookUp(lowerCased, header.name().toLowerCase(Locale.ROOT));
            }
            outputs.put(headerOutputName(header.name()), value);
        }
        Map<?, ?> query = mapOrEmpty(webhookData.get("query_params"));
        params.forEach(param -> outputs.put(param.name(), query.get(param.name())));
        Map<?, ?> fields = mapOrEmpty(webhookData.get("body"));
        Map<?, ?> files = mapOrEmpty(webhookData.get("files"));
        for (Parameter field : body) {
            outputs.put(field.name(), bodyOutput(field, fields, files));
        }
        outputs.put(RAW_OUTPUT, webhookData);
        return Collections.unmodifiableMap(outputs);
    }

    private Object bodyOutput(Parameter field, Map<?, ?> fields, Map<?, ?> files) {
        return switch (contentType) {
            case TEXT -> Objects.toString(fields.get("raw"), "");
            case BINARY -> fields.get("raw");
            default -> field.type() == WebhookParameterType.FILE ? files.get(field.name()) : fields.get(field.name());
        };
    }

    /** Dify's {@code _get_normalized}: the exact name, else the name with '-' and '_' swapped. */
    private static Object lookUp(Map<?, ?> values, String name) {
        if (values.containsKey(name)) {
            return values.get(name);
        }
        String alternate = name.contains("-") ? name.replace('-', '_') : name.replace('_', '-');
        return values.get(alternate);
    }

    private static Map<?, ?> mapOrEmpty(Object value) {
        return value instanceof Map<?, ?> map ? map : Map.of();
    }

    /**
     * Dify's {@code generate_webhook_response}: no response text answers a success message, a text that looks
     * like JSON is sent as JSON, any other text as {@code {"message": text}}.
     */
    public Response response() {
        if (responseBody.isEmpty()) {
            Map<String, Object> success = new LinkedHashMap<>();
            success.put("status", "success");
            success.put("message", "Webhook processed successfully");
            return new Response(statusCode, Collections.unmodifiableMap(success), null);
        }
        String stripped = responseBody.strip();
        if (stripped.startsWith("{") || stripped.startsWith("[")) {
            return new Response(statusCode, null, responseBody);
        }
        return new Response(statusCode, Map.of("message", responseBody), null);
    }
}
