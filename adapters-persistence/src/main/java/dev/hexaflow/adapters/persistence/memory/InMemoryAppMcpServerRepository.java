package dev.hexaflow.adapters.persistence.memory;

import dev.hexaflow.application.mcpserver.port.out.AppMcpServerRepository;
import dev.hexaflow.domain.mcpserver.AppMcpServer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** The apps' MCP servers in memory, for one process. */
public final class InMemoryAppMcpServerRepository implements AppMcpServerRepository {

    private final Map<String, AppMcpServer> servers = new LinkedHashMap<>();

    @Override
    public synchronized Optional<AppMcpServer> ofApp(String appId) {
        return servers.values().stream().filter(server -> server.appId().equals(appId)).findFirst();
    }

    @Override
    public synchronized Optional<AppMcpServer> findByCode(String code) {
        return servers.values().stream().filter(server -> server.code().equals(code)).findFirst();
    }

    @Override
    public synchronized void save(AppMcpServer server) {
        servers.put(server.id(), server);
    }
}
