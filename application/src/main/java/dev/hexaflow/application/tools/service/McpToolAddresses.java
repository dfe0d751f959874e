package dev.hexaflow.application.tools.service;

import dev.hexaflow.application.tools.port.out.ToolRegistryRepository;
import dev.hexaflow.domain.tool.McpToolAddress;
import dev.hexaflow.domain.tool.ToolBinding;
import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import java.util.Optional;

/**
 * Where a workflow's tool runs over MCP, read from the registry at each call (so a change applies to the next
 * call): its binding when it has one; else, for Dify's own MCP tool nodes, the registered server its provider
 * names, with the tool of the same name.
 */
public final class McpToolAddresses {

    private final ToolRegistryRepository registry;

    public McpToolAddresses(ToolRegistryRepository registry) {
        this.registry = registry;
    }

    public Optional<McpToolAddress> find(ToolRef ref) {
        Optional<ToolBinding> binding = registry.binding(ref.provider(), ref.tool());
        if (binding.isPresent()) {
            if (binding.get().target() instanceof ToolBinding.McpTool mcp) {
                return registry.server(mcp.server()).map(server -> new McpToolAddress(server, mcp.tool()));
            }
            return Optional.empty();
        }
        if (ref.type() == ToolProviderType.MCP) {
            return registry.server(ref.provider()).map(server -> new McpToolAddress(server, ref.tool()));
        }
        return Optional.empty();
    }
}
