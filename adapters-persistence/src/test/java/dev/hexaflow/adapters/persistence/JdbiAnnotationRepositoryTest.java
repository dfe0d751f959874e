package dev.hexaflow.adapters.persistence;

import dev.hexaflow.adapters.persistence.jdbi.JdbiAnnotationRepository;
import dev.hexaflow.application.annotations.port.out.AnnotationRepository;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The Jdbi annotation repository against the contract of its port, once on each {@link Store}: H2 and PostgreSQL 15,
 * each test on a store of its own, empty and migrated.
 */
@ParameterizedClass(name = "on {0}")
@EnumSource(Store.class)
class JdbiAnnotationRepositoryTest {

    private final Database database;

    JdbiAnnotationRepositoryTest(Store store) {
        database = store.open();
    }

    @AfterEach
    void close() {
        database.close();
    }

    @Nested
    class Annotations extends AnnotationRepositoryContract {
        private final AnnotationRepository repository = new JdbiAnnotationRepository(database.jdbi());

        @Override
        protected AnnotationRepository repository() {
            return repository;
        }
    }
}
