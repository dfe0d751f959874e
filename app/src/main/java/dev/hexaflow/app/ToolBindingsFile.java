package dev.hexaflow.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.hexaflow.application.tool.port.in.BindToolCommand;
import dev.hexaflow.application.tool.port.in.RegisterMcpServerCommand;
import dev.hexaflow.application.tool.port.in.ToolRegistryException;
import dev.hexaflow.application.tool.port.out.ToolRegistryRepository;
import dev.hexaflow.application.tool.service.ManageMcpServersService;
import dev.hexaflow.application.tool.service.ManageToolBindingsService;
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
 * </pre>
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
    static void load(Path file, ToolRegistryRepository registry) {
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
            ManageToolBindingsService bindings = new ManageToolBindingsService(registry);
            for (Iterator<Map.Entry<String, JsonNode>> entries = root.path("servers").fields(); entries.hasNext();) {
                Map.Entry<String, JsonNode> entry = entries.next();
                servers.register(new RegisterMcpServerCommand(server(entry.getKey(), entry.getValue())));
            }
            for (JsonNode binding : root.path("bindings")) {
                JsonNode mcp = binding.path("mcp");
                bindings.bind(new BindToolCommand(new ToolBinding(text(binding, "provider"), text(binding, "tool"),
                        new ToolBinding.McpTool(text(mcp, "server"), text(mcp, "tool")))));
            }
        } catch (IllegalArgumentException | ToolRegistryException e) {
            throw new UsageException("--tools: " + file + ": " + e.getMessage());
        }
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
