package dev.hexaflow.application.tools.service;

import dev.hexaflow.application.apps.port.out.AppRepository;
import dev.hexaflow.application.tools.port.in.BindToolCommand;
import dev.hexaflow.application.tools.port.in.ManageToolBindingsUseCase;
import dev.hexaflow.application.tools.port.in.ToolRegistryException;
import dev.hexaflow.application.tools.port.in.UnbindToolCommand;
import dev.hexaflow.application.tools.port.out.OpenApiDocuments;
import dev.hexaflow.application.tools.port.out.ToolRegistryRepository;
import dev.hexaflow.domain.tool.ToolBinding;

/**
 * Binds a tool only to what can run it: a server that is registered (the server's tool itself is checked when it
 * is called), an operation its OpenAPI document holds, an app that exists.
 */
public final class ManageToolBindingsService implements ManageToolBindingsUseCase {

    private final ToolRegistryRepository registry;
    private final AppRepository apps;
    private final OpenApiDocuments openApi;

    public ManageToolBindingsService(ToolRegistryRepository registry, AppRepository apps, OpenApiDocuments openApi) {
        this.registry = registry;
        this.apps = apps;
        this.openApi = openApi;
    }

    @Override
    public boolean bind(BindToolCommand command) {
        ToolBinding binding = command.binding();
        if (binding.target() instanceof ToolBinding.McpTool mcp && registry.server(mcp.server()).isEmpty()) {
            throw new ToolRegistryException(ToolRegistryException.Reason.INVALID, "No MCP server named '"
                    + mcp.server() + "' is registered; register it first (PUT /admin/tools/servers/" + mcp.server()
                    + " or hexaflow tools server " + mcp.server() + " ...)");
        }
        if (binding.target() instanceof ToolBinding.App app && apps.find(app.appId()).isEmpty()) {
            throw new ToolRegistryException(ToolRegistryException.Reason.INVALID, "No app with id '" + app.appId()
                    + "' exists on this server; import it first (POST /admin/apps or hexaflow apps import)");
        }
        if (binding.target() instanceof ToolBinding.OpenApiOperation operation) {
            try {
                openApi.check(operation);
            } catch (OpenApiDocuments.UnusableOperationException e) {
                throw new ToolRegistryException(ToolRegistryException.Reason.INVALID, e.getMessage());
            }
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
