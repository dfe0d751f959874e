package dev.hexaflow.adapters.persistence;

import dev.hexaflow.adapters.persistence.memory.InMemoryAnnotationRepository;
import dev.hexaflow.application.annotations.port.out.AnnotationRepository;
import org.junit.jupiter.api.Nested;

/** The in-memory annotation repository against the contract of its port. */
class InMemoryAnnotationRepositoryTest {

    @Nested
    class Annotations extends AnnotationRepositoryContract {
        private final AnnotationRepository repository = new InMemoryAnnotationRepository();

        @Override
        protected AnnotationRepository repository() {
            return repository;
        }
    }
}
