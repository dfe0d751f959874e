package dev.hexaflow.adapters.persistence.memory;

import dev.hexaflow.application.tools.port.out.ToolRegistryRepository;
import dev.hexaflow.domain.tool.McpServer;
import dev.hexaflow.domain.tool.ToolBinding;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;

/** MCP servers and bindings in sorted maps: for a one-off run and embedding, and as the contract's reference. */
public final class InMemoryToolRegistryRepository implements ToolRegistryRepository {

    private final Map<String, McpServer> servers = new ConcurrentSkipListMap<>();
    private final Map<List<String>, ToolBinding> bindings = new ConcurrentSkipListMap<>((a, b) -> {
        int provider = a.get(0).compareTo(b.get(0));
        return provider != 0 ? provider : a.get(1).compareTo(b.get(1));
    });

    @Override
    public void saveServer(McpServer server) {
        servers.put(server.name(), server);
    }

    @Override
    public boolean removeServer(String name) {
        return servers.remove(name) != null;
    }

    @Override
    public Optional<McpServer> server(String name) {
        return Optional.ofNullable(servers.get(name));
    }

    @Override
    public List<McpServer> servers() {
        return List.copyOf(servers.values());
    }

    @Override
    public void saveBinding(ToolBinding binding) {
        bindings.put(List.of(binding.provider(), binding.tool()), binding);
    }

    @Override
    public boolean removeBinding(String provider, String tool) {
        return bindings.remove(List.of(provider, tool)) != null;
    }

    @Override
    public Optional<ToolBinding> binding(String provider, String tool) {
        return Optional.ofNullable(bindings.get(List.of(provider, tool)));
    }

    @Override
    public List<ToolBinding> bindings() {
        return List.copyOf(bindings.values());
    }
}
