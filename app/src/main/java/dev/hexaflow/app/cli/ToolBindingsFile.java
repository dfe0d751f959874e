package dev.hexaflow.app.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.hexaflow.adapters.persistence.memory.InMemoryAppRepository;
import dev.hexaflow.application.tools.port.in.BindToolCommand;
import dev.hexaflow.application.tools.port.in.RegisterMcpServerCommand;
import dev.hexaflow.application.tools.port.in.ToolRegistryException;
import dev.hexaflow.application.tools.port.out.OpenApiDocuments;
import dev.hexaflow.application.tools.port.out.ToolRegistryRepository;
import dev.hexaflow.application.tools.service.ManageMcpServersService;
import dev.hexaflow.application.tools.service.ManageToolBindingsService;
import dev.hexaflow.domain.tool.ApiCredential;
import dev.hexaflow.domain.tool.McpServer;
import dev.hexaflow.domain.tool.ToolBinding;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The servers and bindings of a one-off run ({@code hexaflow run FILE.yml --tools BINDINGS.yml}), in the shapes of
 * the admin API:
 *
 * <pre>
 * servers:
 *   calc: {url: "http://127.0.0.1:8931/mcp", headers: {X-Api-Key: "..."}}
 *   db: {command: [npx, -y, "@acme/db-mcp"], env: {DB_PASSWORD: "..."}}
 * bindings:
 *   - {provider: junjiem/db_query/db_query, tool: sql_execute, mcp: {server: db, tool: query}}
 *   - {provider: weather, tool: forecast, openapi: {document: "https://api.example.com/openapi.json",
 *      operation: getForecast, auth: {type: api_key_header, header: Authorization, prefix: bearer, value: "..."}}}
 * </pre>
 *
 * An OpenAPI document is a URL or the document's text; its {@code auth} (optional) is {@code api_key_header} (with
 * header and prefix) or {@code api_key_query} (with param), and the key; a binding to an app
 * ({@code app: APP_ID}) is refused, for a one-off run has no apps: bind it on the server.
 */
final class ToolBindingsFile {

    private static final YAMLMapper YAML = new YAMLMapper();

    private ToolBindingsFile() {
    }

    /**
     * Reads the file into the registry, through the same use cases as the admin API.
     *
     * @throws UsageException naming the file and what in it is wrong
     */
    static void load(Path file, ToolRegistryRepository registry, OpenApiDocuments openApi) {
        JsonNode root;
        try {
            root = YAML.readTree(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new UsageException("--tools: cannot read " + file + ": " + e.getMessage());
        }
        if (root == null || !root.isObject()) {
            throw new UsageException("--tools: " + file + " must hold servers: {...} and bindings: [...]");
        }
        try {
            ManageMcpServersService servers = new ManageMcpServersService(registry);
            ManageToolBindingsService bindings = new ManageToolBindingsService(registry,
                    new InMemoryAppRepository(), openApi);
            for (Iterator<Map.Entry<String, JsonNode>> entries = root.path("servers").fields(); entries.hasNext();) {
                Map.Entry<String, JsonNode> entry = entries.next();
                servers.register(new RegisterMcpServerCommand(server(entry.getKey(), entry.getValue())));
            }
            for (JsonNode binding : root.path("bindings")) {
                bindings.bind(new BindToolCommand(new ToolBinding(text(binding, "provider"), text(binding, "tool"),
                        target(binding))));
            }
        } catch (IllegalArgumentException | ToolRegistryException e) {
            throw new UsageException("--tools: " + file + ": " + e.getMessage());
        }
    }

    /** The binding's one target: {@code mcp}, {@code openapi} or {@code app}. */
    private static ToolBinding.Target target(JsonNode binding) {
        if (binding.has("app")) {
            throw new IllegalArgumentException("the binding of " + text(binding, "provider") + "/"
                    + text(binding, "tool") + " names an app, and a one-off run has none; bind it on the server "
                    + "(hexaflow tools bind ... --app APP_ID)");
        }
        if (binding.has("openapi") == binding.has("mcp")) {
            throw new IllegalArgumentException("the binding of " + text(binding, "provider") + "/"
                    + text(binding, "tool") + " needs either mcp: {server, tool} or openapi: {document, operation}");
        }
        if (binding.has("openapi")) {
            JsonNode openApi = binding.path("openapi");
            JsonNode auth = openApi.path("auth");
            ApiCredential credential = auth.isMissingNode() || auth.isNull() ? new ApiCredential.None()
                    : ApiCredential.of(text(auth, "type"), text(auth, "header"), text(auth, "prefix"),
                            text(auth, "param"), text(auth, "value"));
            return new ToolBinding.OpenApiOperation(text(openApi, "document"), text(openApi, "operation"),
                    credential);
        }
        JsonNode mcp = binding.path("mcp");
        return new ToolBinding.McpTool(text(mcp, "server"), text(mcp, "tool"));
    }

    private static McpServer server(String name, JsonNode body) {
        if (body.has("url") == body.has("command")) {
            throw new IllegalArgumentException("the server " + name + " needs either url (and headers) or command "
                    + "(and env)");
        }
        if (body.has("url")) {
            try {
                return new McpServer(name, new McpServer.StreamableHttp(new URI(text(body, "url")),
                        texts(body.path("headers"))));
            } catch (URISyntaxException e) {
                throw new IllegalArgumentException("the url of server " + name + " is not a URL");
            }
        }
        List<String> command = new ArrayList<>();
        body.path("command").forEach(part -> command.add(part.asText()));
        return new McpServer(name, new McpServer.Stdio(command, texts(body.path("env"))));
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || !value.isValueNode() ? null : value.asText();
    }

    private static Map<String, String> texts(JsonNode node) {
        Map<String, String> texts = new LinkedHashMap<>();
        node.fields().forEachRemaining(entry -> texts.put(entry.getKey(), entry.getValue().asText()));
        return texts;
    }
}
