package dev.hexaflow.application.mcpserver.port.out;

import dev.hexaflow.domain.mcpserver.AppMcpServer;
import java.util.Optional;

/** Keeps the apps' MCP server settings, at most one per app; shared by every instance on the store. */
public interface AppMcpServerRepository {

    Optional<AppMcpServer> ofApp(String appId);

    /** The server whose URL has this code, whichever app it is of. */
    Optional<AppMcpServer> findByCode(String code);

    /** Adds the server, or replaces the one with its id. */
    void save(AppMcpServer server);
}
