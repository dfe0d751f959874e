package dev.hexaflow.adapters.persistence;

import dev.hexaflow.adapters.persistence.jdbi.JdbiCampusDataRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiCampusKeyRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiDatasetKeyRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiKnowledgeRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiToolFileRepository;
import dev.hexaflow.adapters.persistence.jdbi.JdbiToolRegistryRepository;
import dev.hexaflow.application.campus.port.out.CampusDataRepository;
import dev.hexaflow.application.campus.port.out.CampusKeyRepository;
import dev.hexaflow.application.knowledge.port.out.DatasetKeyRepository;
import dev.hexaflow.application.knowledge.port.out.KnowledgeRepository;
import dev.hexaflow.application.tools.port.out.ToolFileRepository;
import dev.hexaflow.application.tools.port.out.ToolRegistryRepository;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The campus, tool and knowledge Jdbi repositories against the contracts of their ports, once on each
 * {@link Store}: H2 and PostgreSQL 15, each test on a store of its own, empty and migrated. The tests run on H2
 * alone are in {@link H2RepositoriesTest}.
 */
@ParameterizedClass(name = "on {0}")
@EnumSource(Store.class)
class JdbiRepositoriesTest {

    private final Database database;

    JdbiRepositoriesTest(Store store) {
        database = store.open();
    }

    @AfterEach
    void close() {
        database.close();
    }

    @Nested
    class Keys extends CampusKeyRepositoryContract {
        private final JdbiCampusKeyRepository repository = new JdbiCampusKeyRepository(database.jdbi());

        @Override
        protected CampusKeyRepository repository() {
            return repository;
        }

        @AfterEach
        void stopCounting() {
            repository.close();
        }
    }

    @Nested
    class ToolFiles extends ToolFileRepositoryContract {
        private final ToolFileRepository repository = new JdbiToolFileRepository(database.jdbi());

        @Override
        protected ToolFileRepository repository() {
            return repository;
        }
    }

    @Nested
    class Tools extends ToolRegistryRepositoryContract {
        private final ToolRegistryRepository repository = new JdbiToolRegistryRepository(database.jdbi());

        @Override
        protected ToolRegistryRepository repository() {
            return repository;
        }
    }

    @Nested
    class Data extends CampusDataRepositoryContract {
        private final CampusDataRepository repository = new JdbiCampusDataRepository(database.jdbi());

        @Override
        protected CampusDataRepository repository() {
            return repository;
        }
    }

    @Nested
    class Knowledge extends KnowledgeRepositoryContract {
        private final KnowledgeRepository repository = new JdbiKnowledgeRepository(database.jdbi());

        @Override
        protected KnowledgeRepository repository() {
            return repository;
        }
    }

    @Nested
    class DatasetKeys extends DatasetKeyRepositoryContract {
        private final DatasetKeyRepository repository = new JdbiDatasetKeyRepository(database.jdbi());

        @Override
        protected DatasetKeyRepository repository() {
            return repository;
        }
    }
}
