package dev.hexaflow.application.knowledge.port.in;

import dev.hexaflow.domain.knowledge.KnowledgeTag;
import java.util.List;

/** Creates, renames and deletes knowledge tags, and binds them to bases. */
public interface ManageKnowledgeTagsUseCase {

    /** A tag with how many bases it is bound to. */
    record CountedTag(KnowledgeTag tag, int bindings) {
    }

    /** @throws KnowledgeException INVALID for a name blank or longer than {@link KnowledgeTag#MAX_NAME} */
    CountedTag create(String name);

    /** @throws KnowledgeException NOT_FOUND for an unknown tag, INVALID for a bad name */
    CountedTag rename(String tagId, String name);

    /** @throws KnowledgeException NOT_FOUND for an unknown tag */
    void delete(String tagId);

    /** Every tag, oldest first. */
    List<CountedTag> list();

    /**
     * Binds each tag to the base (an id bound to a base names it).
     *
     * @throws KnowledgeException INVALID for no tag, NOT_FOUND for an unknown base or tag (nothing is bound then)
     */
    void bind(List<String> tagIds, String baseId);

    /** @throws KnowledgeException NOT_FOUND for an unknown base or tag */
    void unbind(String tagId, String baseId);

    /** The tags bound to the base. */
    List<KnowledgeTag> tagsOf(String baseId);
}
