package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.tools.port.out.ToolRegistryRepository;
import dev.hexaflow.domain.tool.ApiCredential;
import dev.hexaflow.domain.tool.McpServer;
import dev.hexaflow.domain.tool.ToolBinding;
import java.net.URI;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * MCP servers in {@code mcp_server} (the transport, then the URL and headers, or the command and environment, as
 * JSON text) and bindings in {@code tool_binding} (the kind of target, mcp, openapi or app, then that kind's columns).
 */
public final class JdbiToolRegistryRepository implements ToolRegistryRepository {

    private static final String HTTP = "http";
    private static final String STDIO = "stdio";
    private static final String MCP = "mcp";
    private static final String OPENAPI = "openapi";
    private static final String APP = "app";

    private final Jdbi jdbi;

    public JdbiToolRegistryRepository(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    @Override
    public void saveServer(McpServer server) {
        boolean http = server.endpoint() instanceof McpServer.StreamableHttp;
        McpServer.StreamableHttp url = http ? (McpServer.StreamableHttp) server.endpoint() : null;
        McpServer.Stdio process = http ? null : (McpServer.Stdio) server.endpoint();
        jdbi.useHandle(handle -> handle.createUpdate(SqlDialect.of(jdbi).upsert("mcp_server", "name", "name, "
                + "transport, url, headers, command, env", ":name, :transport, :url, :headers, :command, :env"))
                .bind("name", server.name())
                .bind("transport", http ? HTTP : STDIO)
                .bind("url", http ? url.url().toString() : null)
                .bind("headers", http ? JsonColumns.write(new LinkedHashMap<>(url.headers())) : null)
                .bind("command", http ? null : JsonColumns.write(process.command()))
                .bind("env", http ? null : JsonColumns.write(new LinkedHashMap<>(process.env())))
                .execute());
    }

    @Override
    public boolean removeServer(String name) {
        return jdbi.withHandle(handle -> handle.createUpdate("DELETE FROM mcp_server WHERE name = :name")
                .bind("name", name).execute()) > 0;
    }

    @Override
    public Optional<McpServer> server(String name) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM mcp_server WHERE name = :name")
                .bind("name", name).map((rs, ctx) -> server(rs)).findOne());
    }

    @Override
    public List<McpServer> servers() {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM mcp_server ORDER BY name")
                .map((rs, ctx) -> server(rs)).list());
    }

    @SuppressWarnings("unchecked")
    private static McpServer server(ResultSet rs) throws SQLException {
        String name = rs.getString("name");
        if (HTTP.equals(rs.getString("transport"))) {
            return new McpServer(name, new McpServer.StreamableHttp(URI.create(rs.getString("url")),
                    texts(JsonColumns.readMap(rs.getString("headers")))));
        }
        List<Object> command = (List<Object>) JsonColumns.read(rs.getString("command"));
        return new McpServer(name, new McpServer.Stdio(command.stream().map(String::valueOf).toList(),
                texts(JsonColumns.readMap(rs.getString("env")))));
    }

    private static Map<String, String> texts(Map<String, Object> map) {
        Map<String, String> texts = new LinkedHashMap<>();
        if (map != null) {
            map.forEach((name, value) -> texts.put(name, String.valueOf(value)));
        }
        return texts;
    }

    @Override
    public void saveBinding(ToolBinding binding) {
        ToolBinding.McpTool mcp = binding.target() instanceof ToolBinding.McpTool t ? t : null;
        ToolBinding.OpenApiOperation openApi = binding.target() instanceof ToolBinding.OpenApiOperation t ? t : null;
        ToolBinding.App app = binding.target() instanceof ToolBinding.App t ? t : null;
        String kind = mcp != null ? MCP : openApi != null ? OPENAPI : APP;
        jdbi.useHandle(handle -> handle.createUpdate(SqlDialect.of(jdbi).upsert("tool_binding", "provider, tool",
                "provider, tool, kind, mcp_server, mcp_tool, openapi_document, openapi_operation, openapi_auth, app_id",
                ":provider, :tool, :kind, :server, :mcp_tool, :document, :operation, :auth, :app"))
                .bind("provider", binding.provider())
                .bind("tool", binding.tool())
                .bind("kind", kind)
                .bind("server", mcp == null ? (String) null : mcp.server())
                .bind("mcp_tool", mcp == null ? (String) null : mcp.tool())
                .bind("document", openApi == null ? (String) null : openApi.document())
                .bind("operation", openApi == null ? (String) null : openApi.operation())
                .bind("auth", openApi == null ? (String) null : credential(openApi.credential()))
                .bind("app", app == null ? (String) null : app.appId())
                .execute());
    }

    @Override
    public boolean removeBinding(String provider, String tool) {
        return jdbi.withHandle(handle -> handle.createUpdate("DELETE FROM tool_binding WHERE provider = :provider "
                + "AND tool = :tool").bind("provider", provider).bind("tool", tool).execute()) > 0;
    }

    @Override
    public Optional<ToolBinding> binding(String provider, String tool) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM tool_binding WHERE provider = :provider "
                + "AND tool = :tool").bind("provider", provider).bind("tool", tool)
                .map((rs, ctx) -> binding(rs)).findOne());
    }

    @Override
    public List<ToolBinding> bindings() {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM tool_binding ORDER BY provider, tool")
                .map((rs, ctx) -> binding(rs)).list());
    }

    private static ToolBinding binding(ResultSet rs) throws SQLException {
        String kind = rs.getString("kind");
        ToolBinding.Target target = switch (kind) {
            case MCP -> new ToolBinding.McpTool(rs.getString("mcp_server"), rs.getString("mcp_tool"));
            case OPENAPI -> new ToolBinding.OpenApiOperation(rs.getString("openapi_document"),
                    rs.getString("openapi_operation"), credential(rs.getString("openapi_auth")));
            case APP -> new ToolBinding.App(rs.getString("app_id"));
            default -> throw new IllegalStateException("tool_binding holds a binding of unknown kind '" + kind + "'");
        };
        return new ToolBinding(rs.getString("provider"), rs.getString("tool"), target);
    }

    /** The credential as JSON text in Dify's words: {@code auth_type}, then its header and prefix or its param. */
    private static String credential(ApiCredential credential) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("auth_type", credential.type());
        if (credential instanceof ApiCredential.ApiKeyHeader header) {
            fields.put("api_key_header", header.header());
            fields.put("api_key_header_prefix", header.prefix().label());
            fields.put("api_key_value", header.value());
        } else if (credential instanceof ApiCredential.ApiKeyQuery query) {
            fields.put("api_key_query_param", query.param());
            fields.put("api_key_value", query.value());
        }
        return JsonColumns.write(fields);
    }

    /** A binding kept before V9 has no credential column value: none. */
    private static ApiCredential credential(String text) {
        Map<String, Object> fields = JsonColumns.readMap(text);
        if (fields == null) {
            return new ApiCredential.None();
        }
        String value = String.valueOf(fields.get("api_key_value"));
        return switch (String.valueOf(fields.get("auth_type"))) {
            case "api_key_header" -> new ApiCredential.ApiKeyHeader((String) fields.get("api_key_header"),
                    ApiCredential.Prefix.of((String) fields.get("api_key_header_prefix")), value);
            case "api_key_query" -> new ApiCredential.ApiKeyQuery((String) fields.get("api_key_query_param"), value);
            default -> new ApiCredential.None();
        };
    }
}
