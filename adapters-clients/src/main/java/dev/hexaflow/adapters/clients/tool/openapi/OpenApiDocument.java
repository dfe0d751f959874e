package dev.hexaflow.adapters.clients.tool.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.hexaflow.application.tools.port.out.OpenApiDocuments.UnusableOperationException;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** An OpenAPI 3 document as read: its first server's URL and its operations by {@code operationId}. */
final class OpenApiDocument {

    /** The methods Dify's api tools call. */
    private static final List<String> METHODS = List.of("get", "post", "put", "patch", "delete", "head");
    /** YAML reads JSON too: a document is taken in either. */
    private static final YAMLMapper YAML = new YAMLMapper();

    private final JsonNode root;
    private final String server;

    private OpenApiDocument(JsonNode root, String server) {
        this.root = root;
        this.server = server;
    }

    /**
     * @param base where the document was fetched, against which a relative server URL is read; null inline
     * @throws UnusableOperationException when it is not an OpenAPI 3 document naming a server
     */
    static OpenApiDocument parse(String text, URI base) {
        JsonNode root;
        try {
            root = YAML.readTree(text);
        } catch (IOException | RuntimeException e) {
            throw new UnusableOperationException("The OpenAPI document does not parse as JSON or YAML: "
                    + firstLine(e.getMessage()));
        }
        if (root == null || !root.isObject() || !root.path("openapi").asText("").startsWith("3")) {
            throw new UnusableOperationException("The document is not an OpenAPI 3 document (it needs "
                    + "\"openapi\": \"3.x\")");
        }
        JsonNode first = root.path("servers").path(0);
        String url = first.path("url").asText("");
        if (url.isBlank()) {
            throw new UnusableOperationException("The OpenAPI document names no server (servers[0].url): a tool "
                    + "needs to know where to send its requests");
        }
        // Server variables take their defaults, as Dify's parser gives them.
        for (Iterator<Map.Entry<String, JsonNode>> variables = first.path("variables").fields();
                variables.hasNext();) {
            Map.Entry<String, JsonNode> variable = variables.next();
            url = url.replace("{" + variable.getKey() + "}", variable.getValue().path("default").asText(""));
        }
        URI server;
        try {
            server = base == null ? URI.create(url) : base.resolve(url);
        } catch (IllegalArgumentException e) {
            throw new UnusableOperationException("The OpenAPI document's server '" + url + "' is not a URL");
        }
        String scheme = server.getScheme() == null ? "" : server.getScheme().toLowerCase(java.util.Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || server.getHost() == null) {
            throw new UnusableOperationException("The OpenAPI document's server '" + url + "' is not an http or "
                    + "https URL" + (base == null ? " (an inline document needs an absolute server URL)" : ""));
        }
        String serverUrl = server.toString();
        return new OpenApiDocument(root, serverUrl.endsWith("/") ? serverUrl.substring(0, serverUrl.length() - 1)
                : serverUrl);
    }

    /** @throws UnusableOperationException naming the operations there are when none has this id */
    OpenApiOperation operation(String operationId) {
        List<String> ids = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> paths = root.path("paths").fields(); paths.hasNext();) {
            Map.Entry<String, JsonNode> path = paths.next();
            for (String method : METHODS) {
                JsonNode operation = path.getValue().get(method);
                if (operation == null || !operation.isObject()) {
                    continue;
                }
                String id = operation.path("operationId").asText("");
                if (id.equals(operationId)) {
                    return new OpenApiOperation(operationId, method.toUpperCase(java.util.Locale.ROOT),
                            server + path.getKey(), parameters(path.getValue(), operation), body(operation),
                            operation.path("summary").asText(operation.path("description").asText("")));
                }
                ids.add(id.isEmpty() ? method.toUpperCase(java.util.Locale.ROOT) + " " + path.getKey()
                        + " (no operationId)" : id);
            }
        }
        throw new UnusableOperationException("The OpenAPI document has no operation with operationId '"
                + operationId + "'; its operations are: " + (ids.isEmpty() ? "none" : String.join(", ", ids)));
    }

    /** The path's parameters, then the operation's, which replace those of the same name and place. */
    private List<JsonNode> parameters(JsonNode path, JsonNode operation) {
        Map<String, JsonNode> byPlace = new LinkedHashMap<>();
        for (JsonNode source : List.of(path.path("parameters"), operation.path("parameters"))) {
            for (JsonNode given : source) {
                JsonNode parameter = resolved(given);
                String name = parameter.path("name").asText("");
                String in = parameter.path("in").asText("");
                if (name.isEmpty() || !List.of("path", "query", "header", "cookie").contains(in)) {
                    throw new UnusableOperationException("A parameter of operation '" + operation.path(
                            "operationId").asText() + "' lacks a name or an 'in' of path, query, header, cookie");
                }
                ObjectNode copy = parameter.deepCopy();
                if (parameter.has("schema")) {
                    copy.set("schema", resolved(parameter.get("schema")));
                }
                byPlace.put(in + "\u0000" + name, copy);
            }
        }
        return List.copyOf(byPlace.values());
    }

    /** The request body's first content type and its schema, or null when the operation takes none. */
    private OpenApiOperation.Body body(JsonNode operation) {
        JsonNode body = operation.get("requestBody");
        if (body == null || body.isNull()) {
            return null;
        }
        Iterator<Map.Entry<String, JsonNode>> contents = resolved(body).path("content").fields();
        if (!contents.hasNext()) {
            return null;
        }
        Map.Entry<String, JsonNode> content = contents.next();
        return new OpenApiOperation.Body(content.getKey(), resolved(content.getValue().path("schema")));
    }

    /** Follows a local {@code $ref} ({@code #/components/...}), a few hops at most. */
    private JsonNode resolved(JsonNode node) {
        JsonNode current = node;
        for (int hops = 0; current.has("$ref") && hops < 8; hops++) {
            String ref = current.path("$ref").asText("");
            if (!ref.startsWith("#/")) {
                throw new UnusableOperationException("The OpenAPI document refers to '" + ref + "', outside "
                        + "itself; only references within the document (#/components/...) are read");
            }
            JsonNode target = root.at(ref.substring(1));
            if (target.isMissingNode()) {
                throw new UnusableOperationException("The OpenAPI document refers to '" + ref + "', which it does "
                        + "not hold");
            }
            current = target;
        }
        return current;
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        int end = message.indexOf('\n');
        return end < 0 ? message : message.substring(0, end);
    }
}
