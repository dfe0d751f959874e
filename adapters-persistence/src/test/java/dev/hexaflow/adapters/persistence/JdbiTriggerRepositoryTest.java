package dev.hexaflow.adapters.persistence;

import dev.hexaflow.adapters.persistence.jdbi.JdbiTriggerRepository;
import dev.hexaflow.application.triggers.port.out.TriggerRepository;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The Jdbi trigger repository against the contract of its port, once on each {@link Store}: H2 and PostgreSQL 15,
 * each test on a store of its own, empty and migrated (a claim race there is a race between transactions).
 */
@ParameterizedClass(name = "on {0}")
@EnumSource(Store.class)
class JdbiTriggerRepositoryTest {

    private final Database database;

    JdbiTriggerRepositoryTest(Store store) {
        database = store.open();
    }

    @AfterEach
    void close() {
        database.close();
    }

    @Nested
    class Triggers extends TriggerRepositoryContract {
        private final TriggerRepository repository = new JdbiTriggerRepository(database.jdbi());

        @Override
        protected TriggerRepository repository() {
            return repository;
        }
    }
}
