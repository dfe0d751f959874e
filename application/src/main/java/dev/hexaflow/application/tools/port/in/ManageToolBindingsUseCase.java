package dev.hexaflow.application.tools.port.in;

/** Binds workflows' tools to MCP servers' tools, OpenAPI operations or apps, and unbinds them. */
public interface ManageToolBindingsUseCase {

    /**
     * Keeps the binding, replacing the tool's binding if it had one; answers true when the tool was not bound.
     *
     * @throws ToolRegistryException INVALID when the binding names a server that is not registered, an app that does not
     *                               exist, or an OpenAPI operation that cannot run (its message says why)
     */
    boolean bind(BindToolCommand command);

    /** @throws ToolRegistryException NOT_FOUND when the tool is not bound */
    void unbind(UnbindToolCommand command);
}
