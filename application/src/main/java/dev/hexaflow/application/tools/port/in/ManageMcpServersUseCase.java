package dev.hexaflow.application.tools.port.in;

/** Registers and removes the MCP servers tools can be bound to. */
public interface ManageMcpServersUseCase {

    /** Keeps the server, replacing one of that name; answers true when the name was new. */
    boolean register(RegisterMcpServerCommand command);

    /**
     * Forgets the server.
     *
     * @throws ToolRegistryException NOT_FOUND for an unknown name, IN_USE while tools are bound to it
     */
    void remove(String name);
}
