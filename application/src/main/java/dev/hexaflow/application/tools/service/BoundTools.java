package dev.hexaflow.application.tools.service;

import dev.hexaflow.application.tools.port.out.ToolRegistryRepository;
import dev.hexaflow.domain.tool.ToolBinding;
import dev.hexaflow.domain.tool.ToolRef;
import java.util.Optional;

/**
 * What a workflow's tool is bound to, read from the registry at each call (so a change applies to the next call),
 * when its binding is of the kind asked for.
 */
public final class BoundTools {

    private final ToolRegistryRepository registry;

    public BoundTools(ToolRegistryRepository registry) {
        this.registry = registry;
    }

    public <T extends ToolBinding.Target> Optional<T> target(ToolRef ref, Class<T> kind) {
        return registry.binding(ref.provider(), ref.tool()).map(ToolBinding::target).filter(kind::isInstance)
                .map(kind::cast);
    }
}
