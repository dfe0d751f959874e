package dev.hexaflow.application.tools.port.out;

import dev.hexaflow.domain.tool.McpServer;
import dev.hexaflow.domain.tool.ToolBinding;
import java.util.List;
import java.util.Optional;

/** Keeps the MCP servers operators registered, by name, and the tools they bound, by provider and tool. */
public interface ToolRegistryRepository {

    /** Keeps the server, in place of one of the same name. */
    void saveServer(McpServer server);

    /** Forgets the server; answers false when there was none of that name. */
    boolean removeServer(String name);

    Optional<McpServer> server(String name);

    /** Every server, by name. */
    List<McpServer> servers();

    /** Keeps the binding, in place of one of the same provider and tool. */
    void saveBinding(ToolBinding binding);

    /** Forgets the binding of the tool; answers false when it was not bound. */
    boolean removeBinding(String provider, String tool);

    Optional<ToolBinding> binding(String provider, String tool);

    /** Every binding, by provider and tool. */
    List<ToolBinding> bindings();
}
