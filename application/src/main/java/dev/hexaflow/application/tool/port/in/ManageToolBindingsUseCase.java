package dev.hexaflow.application.tool.port.in;

/** Binds workflows' tools to MCP servers' tools, and unbinds them. */
public interface ManageToolBindingsUseCase {

    /**
     * Keeps the binding, replacing the tool's binding if it had one; answers true when the tool was not bound.
     *
     * @throws ToolRegistryException INVALID when the binding names a server that is not registered
     */
    boolean bind(BindToolCommand command);

    /** @throws ToolRegistryException NOT_FOUND when the tool is not bound */
    void unbind(UnbindToolCommand command);
}
