package dev.hexaflow.adapters.persistence;

import dev.hexaflow.adapters.persistence.jdbi.JdbiAppMcpServerRepository;
import dev.hexaflow.application.mcpserver.port.out.AppMcpServerRepository;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The Jdbi MCP server repository against the contract of its port, once on each {@link Store}: H2 and PostgreSQL 15,
 * each test on a store of its own, empty and migrated.
 */
@ParameterizedClass(name = "on {0}")
@EnumSource(Store.class)
class JdbiAppMcpServerRepositoryTest {

    private final Database database;

    JdbiAppMcpServerRepositoryTest(Store store) {
        database = store.open();
    }

    @AfterEach
    void close() {
        database.close();
    }

    @Nested
    class Servers extends AppMcpServerRepositoryContract {
        private final AppMcpServerRepository repository = new JdbiAppMcpServerRepository(database.jdbi());

        @Override
        protected AppMcpServerRepository repository() {
            return repository;
        }
    }
}
