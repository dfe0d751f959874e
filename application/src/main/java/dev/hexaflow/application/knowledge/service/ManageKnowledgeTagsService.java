package dev.hexaflow.application.knowledge.service;

import dev.hexaflow.application.knowledge.port.in.KnowledgeException;
import dev.hexaflow.application.knowledge.port.in.ManageKnowledgeTagsUseCase;
import dev.hexaflow.application.knowledge.port.out.KnowledgeRepository;
import dev.hexaflow.domain.knowledge.KnowledgeBase;
import dev.hexaflow.domain.knowledge.KnowledgeTag;
import java.time.Clock;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;

/** Knowledge tags, kept beside the bases they label. */
public final class ManageKnowledgeTagsService implements ManageKnowledgeTagsUseCase {

    private final KnowledgeRepository repository;
    private final Clock clock;
    private final Supplier<String> ids;

    public ManageKnowledgeTagsService(KnowledgeRepository repository, Clock clock, Supplier<String> ids) {
        this.repository = repository;
        this.clock = clock;
        this.ids = ids;
    }

    @Override
    public CountedTag create(String name) {
        KnowledgeTag tag = valid(() -> new KnowledgeTag(ids.get(), name, clock.instant()));
        repository.saveTag(tag);
        return new CountedTag(tag, 0);
    }

    @Override
    public CountedTag rename(String tagId, String name) {
        KnowledgeTag renamed = valid(() -> tag(tagId).renamed(name));
        repository.saveTag(renamed);
        return new CountedTag(renamed, repository.tagBindings(tagId));
    }

    @Override
    public void delete(String tagId) {
        repository.deleteTag(tag(tagId).id());
    }

    @Override
    public List<CountedTag> list() {
        // Newest first, as Dify lists them.
        return repository.tags().stream()
                .sorted(Comparator.comparing(KnowledgeTag::created).thenComparing(KnowledgeTag::id)
                        .reversed())
                .map(t -> new CountedTag(t, repository.tagBindings(t.id()))).toList();
    }

    @Override
    public void bind(List<String> tagIds, String baseId) {
        if (tagIds == null || tagIds.isEmpty()) {
            throw new KnowledgeException(KnowledgeException.Reason.INVALID, "Tag IDs is required.");
        }
        KnowledgeBase base = base(baseId);
        tagIds.forEach(this::tag);
        tagIds.forEach(id -> repository.bindTag(id, base.id()));
    }

    @Override
    public void unbind(String tagId, String baseId) {
        KnowledgeBase base = base(baseId);
        repository.unbindTag(tag(tagId).id(), base.id());
    }

    @Override
    public List<KnowledgeTag> tagsOf(String baseId) {
        return repository.tagsOf(base(baseId).id());
    }

    private KnowledgeTag tag(String id) {
        return repository.findTag(id).orElseThrow(() -> new KnowledgeException(KnowledgeException.Reason.NOT_FOUND,
                "Tag not found."));
    }

    private KnowledgeBase base(String id) {
        return Aliases.resolve(repository, id).orElseThrow(() -> new KnowledgeException(
                KnowledgeException.Reason.NOT_FOUND, "Dataset not found."));
    }

    private static KnowledgeTag valid(Supplier<KnowledgeTag> tag) {
        try {
            return tag.get();
        } catch (IllegalArgumentException e) {
            throw new KnowledgeException(KnowledgeException.Reason.INVALID, e.getMessage());
        }
    }
}
