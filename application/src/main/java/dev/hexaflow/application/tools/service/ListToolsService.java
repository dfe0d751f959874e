package dev.hexaflow.application.tools.service;

import dev.hexaflow.application.tools.port.in.ListToolsUseCase;
import dev.hexaflow.application.tools.port.out.ToolRegistryRepository;
import java.util.List;

/** The catalogue from the registry, with the built-ins the composition root names. */
public final class ListToolsService implements ListToolsUseCase {

    private final ToolRegistryRepository registry;
    private final List<String> builtIns;

    /** @param builtIns the built-in tools, as {@code provider/tool} */
    public ListToolsService(ToolRegistryRepository registry, List<String> builtIns) {
        this.registry = registry;
        this.builtIns = List.copyOf(builtIns);
    }

    @Override
    public ToolCatalogue list() {
        return new ToolCatalogue(builtIns, registry.servers(), registry.bindings());
    }
}
