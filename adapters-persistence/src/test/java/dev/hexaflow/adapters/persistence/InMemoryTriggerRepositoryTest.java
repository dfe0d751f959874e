package dev.hexaflow.adapters.persistence;

import dev.hexaflow.adapters.persistence.memory.InMemoryTriggerRepository;
import dev.hexaflow.application.triggers.port.out.TriggerRepository;
import org.junit.jupiter.api.Nested;

/** The in-memory trigger repository against the contract of its port. */
class InMemoryTriggerRepositoryTest {

    @Nested
    class Triggers extends TriggerRepositoryContract {
        private final TriggerRepository repository = new InMemoryTriggerRepository();

        @Override
        protected TriggerRepository repository() {
            return repository;
        }
    }
}
