package dev.hexaflow.adapters.persistence.jdbi;

import dev.hexaflow.application.mcpserver.port.out.AppMcpServerRepository;
import dev.hexaflow.domain.mcpserver.AppMcpServer;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/** The apps' MCP servers in {@code app_mcp_server}, the input descriptions as JSON text. */
public final class JdbiAppMcpServerRepository implements AppMcpServerRepository {

    private static final String COLUMNS = "id, app_id, code, description, enabled, parameters, created_at, updated_at";

    private final Jdbi jdbi;
    private final String upsert;

    public JdbiAppMcpServerRepository(Jdbi jdbi) {
        this.jdbi = jdbi;
        this.upsert = SqlDialect.of(jdbi).upsert("app_mcp_server", "id", COLUMNS, ":id, :app_id, :code, "
                + ":description, :enabled, :parameters, :created_at, :updated_at");
    }

    @Override
    public Optional<AppMcpServer> ofApp(String appId) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM app_mcp_server WHERE app_id = :app_id")
                .bind("app_id", appId).map((rs, ctx) -> server(rs)).findOne());
    }

    @Override
    public Optional<AppMcpServer> findByCode(String code) {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT * FROM app_mcp_server WHERE code = :code")
                .bind("code", code).map((rs, ctx) -> server(rs)).findOne());
    }

    @Override
    public void save(AppMcpServer server) {
        jdbi.useHandle(handle -> handle.createUpdate(upsert).bind("id", server.id()).bind("app_id", server.appId())
                .bind("code", server.code()).bind("description", server.description())
                .bind("enabled", server.enabled()).bind("parameters", JsonColumns.write(server.parameters()))
                .bind("created_at", server.createdAt()).bind("updated_at", server.updatedAt()).execute());
    }

    private static AppMcpServer server(ResultSet rs) throws SQLException {
        Map<String, String> parameters = new LinkedHashMap<>();
        JsonColumns.readMap(rs.getString("parameters")).forEach((name, text) -> parameters.put(name,
                String.valueOf(text)));
        return new AppMcpServer(rs.getString("id"), rs.getString("app_id"), rs.getString("code"),
                rs.getString("description"), rs.getBoolean("enabled"), parameters, rs.getLong("created_at"),
                rs.getLong("updated_at"));
    }
}
