package dev.hexaflow.adapters.persistence;

import dev.hexaflow.adapters.persistence.memory.InMemoryAppMcpServerRepository;
import dev.hexaflow.application.mcpserver.port.out.AppMcpServerRepository;
import org.junit.jupiter.api.Nested;

/** The in-memory MCP server repository against the contract of its port. */
class InMemoryAppMcpServerRepositoryTest {

    @Nested
    class Servers extends AppMcpServerRepositoryContract {
        private final AppMcpServerRepository repository = new InMemoryAppMcpServerRepository();

        @Override
        protected AppMcpServerRepository repository() {
            return repository;
        }
    }
}
