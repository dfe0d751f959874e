package dev.hexaflow.application.tool.service;

import dev.hexaflow.application.tool.port.in.BindToolCommand;
import dev.hexaflow.application.tool.port.in.ManageToolBindingsUseCase;
import dev.hexaflow.application.tool.port.in.ToolRegistryException;
import dev.hexaflow.application.tool.port.in.UnbindToolCommand;
import dev.hexaflow.application.tool.port.out.ToolRegistryRepository;
import dev.hexaflow.domain.tool.ToolBinding;

/** Binds a tool only to a server that is registered; the server's tool itself is checked when it is called. */
public final class ManageToolBindingsService implements ManageToolBindingsUseCase {

    private final ToolRegistryRepository registry;

    public ManageToolBindingsService(ToolRegistryRepository registry) {
        this.registry = registry;
    }

    @Override
    public boolean bind(BindToolCommand command) {
        ToolBinding binding = command.binding();
        if (binding.target() instanceof ToolBinding.McpTool mcp && registry.server(mcp.server()).isEmpty()) {
            throw new ToolRegistryException(ToolRegistryException.Reason.INVALID, "No MCP server named '"
                    + mcp.server() + "' is registered; register it first (PUT /admin/tools/servers/" + mcp.server()
                    + " or hexaflow tools server " + mcp.server() + " ...)");
        }
        boolean isNew = registry.binding(binding.provider(), binding.tool()).isEmpty();
        registry.saveBinding(binding);
        return isNew;
    }

    @Override
    public void unbind(UnbindToolCommand command) {
        if (!registry.removeBinding(command.provider(), command.tool())) {
            throw new ToolRegistryException(ToolRegistryException.Reason.NOT_FOUND, "The tool " + command.provider()
                    + "/" + command.tool() + " is not bound");
        }
    }
}
