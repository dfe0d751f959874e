package dev.hexaflow.adapters.http.admin;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hexaflow.adapters.http.server.RouteGroup;
import dev.hexaflow.adapters.http.support.HttpRefusal;
import dev.hexaflow.adapters.http.support.JsonResponses;
import dev.hexaflow.application.tools.port.in.BindToolCommand;
import dev.hexaflow.application.tools.port.in.ListToolsUseCase;
import dev.hexaflow.application.tools.port.in.ManageMcpServersUseCase;
import dev.hexaflow.application.tools.port.in.ManageToolBindingsUseCase;
import dev.hexaflow.application.tools.port.in.RegisterMcpServerCommand;
import dev.hexaflow.application.tools.port.in.UnbindToolCommand;
import dev.hexaflow.domain.tool.ApiCredential;
import dev.hexaflow.domain.tool.McpServer;
import dev.hexaflow.domain.tool.ToolBinding;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Tool administration: list the built-ins, MCP servers and bindings; register and remove servers; bind and unbind
 * tools. Header and environment values and api tools' keys go in and are never shown back: a server is listed with
 * their names only, an api tool's credential with its kind and where it goes.
 */
public final class AdminToolRoutes implements RouteGroup {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final AdminAuthorization admin;
    private final ListToolsUseCase listTools;
    private final ManageMcpServersUseCase servers;
    private final ManageToolBindingsUseCase bindings;

    public AdminToolRoutes(AdminAuthorization admin, ListToolsUseCase listTools, ManageMcpServersUseCase servers,
            ManageToolBindingsUseCase bindings) {
        this.admin = admin;
        this.listTools = listTools;
        this.servers = servers;
        this.bindings = bindings;
    }

    @Override
    public void addTo(RoutesConfig routes) {
        routes.get("/admin/tools", admin.require(this::list));
        routes.put("/admin/tools/servers/{name}", admin.require(this::registerServer));
        routes.delete("/admin/tools/servers/{name}", admin.require(this::removeServer));
        routes.put("/admin/tools/bindings", admin.require(this::bind));
        routes.delete("/admin/tools/bindings", admin.require(this::unbind));
    }

    /** A server as listed: where it is and the names of its secrets, not their values. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record ServerBody(String name, String transport, String url, List<String> headers, List<String> command,
            List<String> env) {

        static ServerBody of(McpServer server) {
            if (server.endpoint() instanceof McpServer.StreamableHttp http) {
                return new ServerBody(server.name(), "streamable_http", http.url().toString(),
                        http.headers().keySet().stream().sorted().toList(), null, null);
            }
            McpServer.Stdio stdio = (McpServer.Stdio) server.endpoint();
            return new ServerBody(server.name(), "stdio", null, null, stdio.command(),
                    stdio.env().keySet().stream().sorted().toList());
        }
    }

    /** A binding as listed and as answered: its one target, mcp, openapi or app. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record BindingBody(String provider, String tool, McpTarget mcp, OpenApiTarget openapi, String app) {

        static BindingBody of(ToolBinding binding) {
            ToolBinding.Target target = binding.target();
            if (target instanceof ToolBinding.McpTool mcp) {
                return new BindingBody(binding.provider(), binding.tool(), new McpTarget(mcp.server(), mcp.tool()),
                        null, null);
            }
            if (target instanceof ToolBinding.OpenApiOperation openApi) {
                return new BindingBody(binding.provider(), binding.tool(), null, new OpenApiTarget(
                        openApi.document(), openApi.operation(), AuthBody.of(openApi.credential())), null);
            }
            return new BindingBody(binding.provider(), binding.tool(), null, null,
                    ((ToolBinding.App) target).appId());
        }
    }

    /** An MCP server's tool a binding points at. */
    record McpTarget(String server, String tool) {
    }

    /** An OpenAPI document (its URL or its text), the operation a binding points at and its credential. */
    record OpenApiTarget(String document, String operation, AuthBody auth) {
    }

    /** A credential as listed: its kind and where it goes, and whether a key is set, never the key. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record AuthBody(String type, String header, String prefix, String param,
            @com.fasterxml.jackson.annotation.JsonProperty("value_set") Boolean valueSet) {

        static AuthBody of(ApiCredential credential) {
            if (credential instanceof ApiCredential.ApiKeyHeader header) {
                return new AuthBody(header.type(), header.header(), header.prefix().label(), null, true);
            }
            if (credential instanceof ApiCredential.ApiKeyQuery query) {
                return new AuthBody(query.type(), null, null, query.param(), true);
            }
            return new AuthBody(credential.type(), null, null, null, null);
        }
    }

    /** The whole catalogue. */
    record Catalogue(List<String> builtin, List<ServerBody> servers, List<BindingBody> bindings) {
    }

    private void list(Context ctx) {
        ListToolsUseCase.ToolCatalogue catalogue = listTools.list();
        json(ctx, 200, new Catalogue(catalogue.builtIns(), catalogue.servers().stream().map(ServerBody::of).toList(),
                catalogue.bindings().stream().map(BindingBody::of).toList()));
    }

    /** {@code {"url", "headers"}} for Streamable HTTP, {@code {"command", "env"}} for stdio. */
    private void registerServer(Context ctx) {
        JsonNode body = object(ctx);
        only(body, Set.of("url", "headers", "command", "env"));
        boolean http = body.has("url");
        if (http == body.has("command")) {
            throw HttpRefusal.invalid("Send either {\"url\": ..., \"headers\": {...}} for a Streamable "
                    + "HTTP server or {\"command\": [...], \"env\": {...}} for a stdio one");
        }
        McpServer server;
        try {
            McpServer.Endpoint endpoint;
            if (http) {
                if (body.has("env")) {
                    throw HttpRefusal.invalid("env goes with command, not with url");
                }
                endpoint = new McpServer.StreamableHttp(url(text(body, "url")), texts(body, "headers"));
            } else {
                if (body.has("headers")) {
                    throw HttpRefusal.invalid("headers go with url, not with command");
                }
                endpoint = new McpServer.Stdio(list(body, "command"), texts(body, "env"));
            }
            server = new McpServer(ctx.pathParam("name"), endpoint);
        } catch (IllegalArgumentException e) {
            throw HttpRefusal.invalid(e.getMessage());
        }
        boolean isNew = servers.register(new RegisterMcpServerCommand(server));
        json(ctx, isNew ? 201 : 200, ServerBody.of(server));
    }

    private void removeServer(Context ctx) {
        servers.remove(ctx.pathParam("name"));
        json(ctx, 200, Map.of("result", "success"));
    }

    /**
     * {@code {"provider", "tool"}} and one of {@code "mcp": {"server", "tool"}}, {@code "openapi": {"document",
     * "operation", "auth"}} (the document's URL or its text; the credential, optional, {@code {"type":
     * "api_key_header", "header", "prefix", "value"}} or {@code {"type": "api_key_query", "param", "value"}}) or
     * {@code "app": APP_ID}.
     */
    private void bind(Context ctx) {
        JsonNode body = object(ctx);
        only(body, Set.of("provider", "tool", "mcp", "openapi", "app"));
        int targets = (body.has("mcp") ? 1 : 0) + (body.has("openapi") ? 1 : 0) + (body.has("app") ? 1 : 0);
        if (targets != 1) {
            throw HttpRefusal.invalid("Send {\"provider\": ..., \"tool\": ...} and one of \"mcp\": "
                    + "{\"server\": ..., \"tool\": ...}, \"openapi\": {\"document\": URL or text, \"operation\": "
                    + "operationId}, \"app\": APP_ID");
        }
        ToolBinding binding;
        try {
            binding = new ToolBinding(text(body, "provider"), text(body, "tool"), target(body));
        } catch (IllegalArgumentException e) {
            throw HttpRefusal.invalid(e.getMessage());
        }
        boolean isNew = bindings.bind(new BindToolCommand(binding));
        json(ctx, isNew ? 201 : 200, BindingBody.of(binding));
    }

    private static ToolBinding.Target target(JsonNode body) {
        if (body.has("app")) {
            return new ToolBinding.App(text(body, "app"));
        }
        String kind = body.has("mcp") ? "mcp" : "openapi";
        JsonNode target = body.get(kind);
        if (!target.isObject()) {
            throw HttpRefusal.invalid(kind + " must be an object: " + (kind.equals("mcp")
                    ? "{\"server\": ..., \"tool\": ...}" : "{\"document\": ..., \"operation\": ...}"));
        }
        if (kind.equals("mcp")) {
            only(target, Set.of("server", "tool"));
            return new ToolBinding.McpTool(text(target, "server"), text(target, "tool"));
        }
        only(target, Set.of("document", "operation", "auth"));
        return new ToolBinding.OpenApiOperation(text(target, "document"), text(target, "operation"),
                credential(target.get("auth")));
    }

    private static ApiCredential credential(JsonNode auth) {
        if (auth == null || auth.isNull()) {
            return new ApiCredential.None();
        }
        if (!auth.isObject()) {
            throw HttpRefusal.invalid("auth must be an object: {\"type\": \"api_key_header\", "
                    + "\"header\": ..., \"prefix\": \"bearer\", \"value\": ...} or {\"type\": \"api_key_query\", "
                    + "\"param\": ..., \"value\": ...}");
        }
        only(auth, Set.of("type", "header", "prefix", "param", "value"));
        return ApiCredential.of(text(auth, "type"), text(auth, "header"), text(auth, "prefix"), text(auth, "param"),
                text(auth, "value"));
    }

    /** The tool by {@code ?provider=&tool=}, or by a body {@code {"provider", "tool"}}. */
    private void unbind(Context ctx) {
        String provider = ctx.queryParam("provider");
        String tool = ctx.queryParam("tool");
        if (provider == null && tool == null && ctx.bodyAsBytes().length > 0) {
            JsonNode body = object(ctx);
            only(body, Set.of("provider", "tool"));
            provider = text(body, "provider");
            tool = text(body, "tool");
        }
        UnbindToolCommand command;
        try {
            command = new UnbindToolCommand(provider, tool);
        } catch (IllegalArgumentException e) {
            throw HttpRefusal.invalid("Name the tool to unbind: ?provider=...&tool=... (" + e.getMessage()
                    + ")");
        }
        bindings.unbind(command);
        json(ctx, 200, Map.of("result", "success"));
    }

    private static JsonNode object(Context ctx) {
        JsonNode body;
        try {
            body = JSON.readTree(ctx.bodyAsBytes());
        } catch (IOException e) {
            body = null;
        }
        if (body == null || !body.isObject()) {
            throw HttpRefusal.invalid("Send a JSON object");
        }
        return body;
    }

    private static void only(JsonNode object, Set<String> fields) {
        for (Iterator<String> names = object.fieldNames(); names.hasNext();) {
            String name = names.next();
            if (!fields.contains(name)) {
                throw HttpRefusal.invalid("Unknown field '" + name + "'; the fields are "
                        + String.join(", ", fields.stream().sorted().toList()));
            }
        }
    }

    private static String text(JsonNode object, String field) {
        JsonNode value = object.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw HttpRefusal.invalid(field + " must be text");
        }
        return value.asText();
    }

    private static URI url(String text) {
        if (text == null) {
            throw HttpRefusal.invalid("url must be an http or https URL");
        }
        try {
            return new URI(text.strip());
        } catch (java.net.URISyntaxException e) {
            throw HttpRefusal.invalid("url is not a URL: " + e.getMessage());
        }
    }

    private static List<String> list(JsonNode object, String field) {
        JsonNode value = object.get(field);
        if (value == null || !value.isArray()) {
            throw HttpRefusal.invalid(field + " must be a list of texts: the program, then its arguments");
        }
        List<String> items = new ArrayList<>();
        for (JsonNode item : value) {
            if (!item.isTextual()) {
                throw HttpRefusal.invalid(field + " must be a list of texts");
            }
            items.add(item.asText());
        }
        return items;
    }

    private static Map<String, String> texts(JsonNode object, String field) {
        JsonNode value = object.get(field);
        Map<String, String> texts = new LinkedHashMap<>();
        if (value == null || value.isNull()) {
            return texts;
        }
        if (!value.isObject()) {
            throw HttpRefusal.invalid(field + " must be an object of texts");
        }
        for (Iterator<Map.Entry<String, JsonNode>> fields = value.fields(); fields.hasNext();) {
            Map.Entry<String, JsonNode> entry = fields.next();
            if (!entry.getValue().isTextual()) {
                throw HttpRefusal.invalid(field + ": the value of " + entry.getKey() + " must be text");
            }
            texts.put(entry.getKey(), entry.getValue().asText());
        }
        return texts;
    }

    private static void json(Context ctx, int status, Object body) {
        ctx.status(status).contentType("application/json").result(JsonResponses.json(body));
    }
}
