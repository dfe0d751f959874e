package dev.hexaflow.application.tools.service;

import dev.hexaflow.application.tools.port.in.ManageMcpServersUseCase;
import dev.hexaflow.application.tools.port.in.RegisterMcpServerCommand;
import dev.hexaflow.application.tools.port.in.ToolRegistryException;
import dev.hexaflow.application.tools.port.out.ToolRegistryRepository;
import dev.hexaflow.domain.tool.ToolBinding;
import java.util.List;

/** Registers servers; refuses to remove one that bindings still name, so no binding points nowhere. */
public final class ManageMcpServersService implements ManageMcpServersUseCase {

    private final ToolRegistryRepository registry;

    public ManageMcpServersService(ToolRegistryRepository registry) {
        this.registry = registry;
    }

    @Override
    public boolean register(RegisterMcpServerCommand command) {
        boolean isNew = registry.server(command.server().name()).isEmpty();
        registry.saveServer(command.server());
        return isNew;
    }

    @Override
    public void remove(String name) {
        if (registry.server(name).isEmpty()) {
            throw new ToolRegistryException(ToolRegistryException.Reason.NOT_FOUND, "No MCP server named '" + name
                    + "' is registered");
        }
        List<String> bound = registry.bindings().stream()
                .filter(binding -> binding.target() instanceof ToolBinding.McpTool mcp && mcp.server().equals(name))
                .map(ToolBinding::label).toList();
        if (!bound.isEmpty()) {
            throw new ToolRegistryException(ToolRegistryException.Reason.IN_USE, "The MCP server '" + name
                    + "' is bound to " + String.join(", ", bound) + "; unbind them first");
        }
        registry.removeServer(name);
    }
}
