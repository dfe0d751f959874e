package dev.hexaflow.adapters.clients.tool.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.nodes.net.OutboundExchange;
import dev.hexaflow.domain.tool.ApiCredential;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One operation of a document: where it is sent and what it takes; makes the request for a call's arguments as
 * Dify's {@code ApiTool.do_http_request} does, with its messages for a missing parameter.
 */
record OpenApiOperation(String id, String method, String url, List<JsonNode> parameters, Body body,
        String summary) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The request body's content type and its schema (an object's properties, some required). */
    record Body(String contentType, JsonNode schema) {
    }

    /** The arguments' JSON schema: every parameter and body property, the required ones named. */
    Map<String, Object> inputSchema() {
        Map<String, Object> properties = new LinkedHashMap<>();
        List<String> required = new ArrayList<>();
        for (JsonNode parameter : parameters) {
            Map<String, Object> schema = new LinkedHashMap<>(parameter.has("schema")
                    ? JSON.convertValue(parameter.get("schema"), Map.class) : Map.of("type", "string"));
            if (parameter.has("description")) {
                schema.putIfAbsent("description", parameter.get("description").asText());
            }
            properties.put(parameter.path("name").asText(), schema);
            if (parameter.path("required").asBoolean(false)) {
                required.add(parameter.path("name").asText());
            }
        }
        if (body != null) {
            body.schema().path("properties").fields().forEachRemaining(property -> properties.put(property.getKey(),
                    JSON.convertValue(property.getValue(), Map.class)));
            body.schema().path("required").forEach(name -> required.add(name.asText()));
        }
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", properties);
        if (!required.isEmpty()) {
            schema.put("required", required);
        }
        return schema;
    }

    /**
     * The request for a call, with the credential as Dify's {@code assembling_request} adds it (a header, or a
     * query parameter in place of an argument of that name). The header parameters and the credential's header
     * are bound to the document's server: a redirect to another origin goes without them.
     *
     * @throws IllegalArgumentException "Missing required parameter ..." as Dify words it
     */
    OutboundExchange.Outgoing request(Map<String, Object> given, ApiCredential credential) {
        Map<String, Object> arguments = withRequiredDefaults(given);
        String target = url;
        List<String> query = new ArrayList<>();
        List<Map.Entry<String, String>> headers = new ArrayList<>();
        List<String> cookies = new ArrayList<>();
        for (JsonNode parameter : parameters) {
            String name = parameter.path("name").asText();
            Object value = arguments.containsKey(name) ? arguments.get(name)
                    : JSON.convertValue(parameter.path("schema").path("default"), Object.class);
            value = value == null ? "" : value;
            switch (parameter.path("in").asText()) {
                case "path" -> target = target.replace("{" + name + "}", URLEncoder.encode(pythonStr(value),
                        StandardCharsets.UTF_8).replace("+", "%20"));
                case "query" -> {
                    if (!"".equals(value)) {
                        for (Object item : value instanceof List<?> list ? list : List.of(value)) {
                            query.add(URLEncoder.encode(name, StandardCharsets.UTF_8) + "="
                                    + URLEncoder.encode(queryStr(item), StandardCharsets.UTF_8));
                        }
                    }
                }
                case "header" -> headers.add(Map.entry(name, pythonStr(value)));
                default -> cookies.add(name + "=" + pythonStr(value));
            }
        }
        if (!cookies.isEmpty()) {
            headers.add(Map.entry("Cookie", String.join("; ", cookies)));
        }
        Set<String> originBound = new HashSet<>();
        headers.forEach(header -> originBound.add(header.getKey()));
        if (credential instanceof ApiCredential.ApiKeyHeader key) {
            // The key wins over a header parameter of the same name: a model's argument cannot replace it.
            headers.removeIf(header -> header.getKey().equalsIgnoreCase(key.header()));
            headers.add(Map.entry(key.header(), key.headerValue()));
            originBound.add(key.header());
        }
        if (credential instanceof ApiCredential.ApiKeyQuery key) {
            String param = URLEncoder.encode(key.param(), StandardCharsets.UTF_8);
            query.removeIf(pair -> pair.startsWith(param + "="));
            query.add(param + "=" + URLEncoder.encode(key.value(), StandardCharsets.UTF_8));
        }
        byte[] content = null;
        if (body != null) {
            headers.add(Map.entry("Content-Type", body.contentType()));
            content = bodyContent(arguments);
        }
        return new OutboundExchange.Outgoing(uri(target, query), method, headers, content, originBound);
    }

    /** The arguments, with the default of each required parameter the call left out. */
    private Map<String, Object> withRequiredDefaults(Map<String, Object> given) {
        Map<String, Object> arguments = new LinkedHashMap<>(given);
        for (JsonNode parameter : parameters) {
            String name = parameter.path("name").asText();
            if (parameter.path("required").asBoolean(false) && !arguments.containsKey(name)) {
                JsonNode fallback = parameter.path("schema").get("default");
                if (fallback == null || fallback.isNull()) {
                    throw new IllegalArgumentException("Missing required parameter " + name);
                }
                arguments.put(name, JSON.convertValue(fallback, Object.class));
            }
        }
        return arguments;
    }

    /** The request body: each property the arguments give (converted to its type) or defaults, as JSON or a form. */
    private byte[] bodyContent(Map<String, Object> arguments) {
        Map<String, Object> fields = new LinkedHashMap<>();
        List<String> required = new ArrayList<>();
        body.schema().path("required").forEach(name -> required.add(name.asText()));
        for (var properties = body.schema().path("properties").fields(); properties.hasNext();) {
            var property = properties.next();
            String name = property.getKey();
            if (arguments.containsKey(name)) {
                fields.put(name, property.getValue().has("$ref") ? arguments.get(name)
                        : converted(property.getValue(), arguments.get(name)));
            } else if (required.contains(name)) {
                throw new IllegalArgumentException("Missing required parameter " + name + " in operation " + id);
            } else if (property.getValue().has("default")) {
                fields.put(name, JSON.convertValue(property.getValue().get("default"), Object.class));
            }
        }
        return body.contentType().equals("application/json") ? JacksonOpenApiToolRunner.jsonBody(fields)
                : JacksonOpenApiToolRunner.formEncoded(fields).getBytes(StandardCharsets.UTF_8);
    }

    private static URI uri(String target, List<String> query) {
        try {
            return URI.create(query.isEmpty() ? target : target + (target.contains("?") ? "&" : "?")
                    + String.join("&", query));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("The operation's URL " + target + " is not a URL: " + e.getMessage());
        }
    }

    /** A body property's value converted to its schema's type, as Dify's {@code _convert_body_property_type}. */
    private static Object converted(JsonNode property, Object value) {
        String type = property.path("type").asText("");
        try {
            return switch (type) {
                case "integer", "int" -> value instanceof Number n ? (Object) n.longValue()
                        : (Object) Long.parseLong(String.valueOf(value).strip());
                case "number" -> String.valueOf(value).contains(".") ? (Object) Double.parseDouble(
                        String.valueOf(value)) : (Object) Long.parseLong(String.valueOf(value).strip());
                case "string" -> pythonStr(value);
                case "boolean" -> value instanceof Boolean b ? b : value instanceof Number n ? n.doubleValue() != 0
                        : value instanceof String s ? !s.isEmpty() : value != null;
                case "object", "array" -> value instanceof String s ? JSON.readValue(s, Object.class) : value;
                default -> value;
            };
        } catch (NumberFormatException | com.fasterxml.jackson.core.JsonProcessingException e) {
            return value;
        }
    }

    /** Python's {@code str(value)}: {@code True}, {@code False}, the text itself. */
    static String pythonStr(Object value) {
        if (value instanceof Boolean b) {
            return b ? "True" : "False";
        }
        if (value instanceof Map<?, ?> || value instanceof List<?>) {
            return dev.hexaflow.domain.workflow.Values.pythonJson(value);
        }
        return String.valueOf(value);
    }

    /** httpx's query value: {@code true}, {@code false}, the text itself. */
    private static String queryStr(Object value) {
        return value instanceof Boolean b ? String.valueOf(b) : pythonStr(value);
    }
}
