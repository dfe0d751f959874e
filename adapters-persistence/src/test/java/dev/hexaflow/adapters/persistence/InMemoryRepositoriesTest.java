package dev.hexaflow.adapters.persistence;

import dev.hexaflow.adapters.persistence.memory.InMemoryCampusDataRepository;
import dev.hexaflow.adapters.persistence.memory.InMemoryCampusKeyRepository;
import dev.hexaflow.application.campus.port.out.CampusDataRepository;
import dev.hexaflow.application.campus.port.out.CampusKeyRepository;
import org.junit.jupiter.api.Nested;

class InMemoryRepositoriesTest {

    @Nested
    class Keys extends CampusKeyRepositoryContract {
        private final CampusKeyRepository repository = new InMemoryCampusKeyRepository();

        @Override
        protected CampusKeyRepository repository() {
            return repository;
        }
    }

    @Nested
    class Data extends CampusDataRepositoryContract {
        private final CampusDataRepository repository = new InMemoryCampusDataRepository();

        @Override
        protected CampusDataRepository repository() {
            return repository;
        }
    }

    @Nested
    class CachedData extends CampusDataRepositoryContract {
        private final CampusDataRepository repository =
                new InMemoryCachingCampusDataRepository(new InMemoryCampusDataRepository());

        @Override
        protected CampusDataRepository repository() {
            return repository;
        }
    }
}
