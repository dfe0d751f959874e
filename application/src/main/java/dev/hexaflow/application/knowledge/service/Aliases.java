package dev.hexaflow.application.knowledge.service;

import dev.hexaflow.application.knowledge.port.out.KnowledgeRepository;
import dev.hexaflow.domain.knowledge.KnowledgeBase;
import java.util.Optional;

/** How an id names a base: its own id first, else the id bound to it. */
final class Aliases {

    private Aliases() {
    }

    static Optional<KnowledgeBase> resolve(KnowledgeRepository repository, String id) {
        Optional<KnowledgeBase> own = repository.findBase(id);
        return own.isPresent() ? own : repository.aliasTarget(id).flatMap(repository::findBase);
    }
}
