package dev.hexaflow.application.knowledge;

import static dev.hexaflow.application.knowledge.ManageKnowledgeBasesServiceTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.hexaflow.adapters.persistence.memory.InMemoryDatasetKeyRepository;
import dev.hexaflow.application.knowledge.port.in.KnowledgeException.Reason;
import dev.hexaflow.application.knowledge.port.in.ManageKnowledgeTagsUseCase.CountedTag;
import dev.hexaflow.application.knowledge.service.ManageDatasetKeysService;
import dev.hexaflow.application.knowledge.service.ManageKnowledgeTagsService;
import dev.hexaflow.domain.knowledge.IndexingTechnique;
import dev.hexaflow.domain.knowledge.KnowledgeTag;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Knowledge tags bound to bases, and the Knowledge API's keys, on the in-memory repositories. */
class KnowledgeTagsAndKeysTest {

    private final KnowledgeBed bed = new KnowledgeBed();
    private final ManageKnowledgeTagsService tags = new ManageKnowledgeTagsService(bed.repository, bed.clock,
            bed::nextId);
    private final AtomicInteger drawn = new AtomicInteger();
    private final ManageDatasetKeysService keys = new ManageDatasetKeysService(new InMemoryDatasetKeyRepository(),
            length -> String.format("%0" + length + "d", drawn.incrementAndGet()), bed.clock);

    KnowledgeTagsAndKeysTest() {
        bed.base("kb-1", IndexingTechnique.ECONOMY);
        bed.base("kb-2", IndexingTechnique.ECONOMY);
    }

    @AfterEach
    void close() {
        bed.close();
    }

    @Test
    void tagsAreListedNewestFirstWithHowManyBasesEachLabels() {
        CountedTag hr = tags.create("HR");
        bed.clock.advance(Duration.ofMinutes(1));
        CountedTag it = tags.create("IT");
        tags.bind(List.of(hr.tag().id()), "kb-1");
        tags.bind(List.of(hr.tag().id(), it.tag().id()), "kb-2");

        List<CountedTag> listed = tags.list();

        assertThat(listed).extracting(t -> t.tag().name()).containsExactly("IT", "HR");
        assertThat(listed).extracting(CountedTag::bindings).containsExactly(1, 2);
        assertThat(tags.tagsOf("kb-2")).extracting(KnowledgeTag::name).containsExactlyInAnyOrder("HR", "IT");
    }

    @Test
    void aRenamedTagKeepsItsIdAndBindings() {
        CountedTag hr = tags.create("HR");
        tags.bind(List.of(hr.tag().id()), "kb-1");

        CountedTag renamed = tags.rename(hr.tag().id(), "People");

        assertThat(renamed.tag().id()).isEqualTo(hr.tag().id());
        assertThat(renamed.bindings()).isEqualTo(1);
        assertThat(tags.tagsOf("kb-1")).extracting(KnowledgeTag::name).containsExactly("People");
    }

    @Test
    void aBadNameOrAnUnknownTagIsRefused() {
        assertRefused(() -> tags.create(" "), Reason.INVALID, "Tag name must be between 1 to 50 characters.");
        assertRefused(() -> tags.create("t".repeat(51)), Reason.INVALID,
                "Tag name must be between 1 to 50 characters.");
        assertRefused(() -> tags.rename("tag-none", "x"), Reason.NOT_FOUND, "Tag not found.");
        assertRefused(() -> tags.delete("tag-none"), Reason.NOT_FOUND, "Tag not found.");
        assertThat(tags.list()).isEmpty();
    }

    @Test
    void bindingNoTagOrAnUnknownOneBindsNothing() {
        CountedTag hr = tags.create("HR");

        assertRefused(() -> tags.bind(List.of(), "kb-1"), Reason.INVALID, "Tag IDs is required.");
        assertRefused(() -> tags.bind(List.of(hr.tag().id(), "tag-none"), "kb-1"), Reason.NOT_FOUND,
                "Tag not found.");
        assertRefused(() -> tags.bind(List.of(hr.tag().id()), "kb-none"), Reason.NOT_FOUND, "Dataset not found.");
        assertThat(tags.tagsOf("kb-1")).isEmpty();
    }

    @Test
    void anUnboundOrDeletedTagNoLongerLabelsTheBase() {
        CountedTag hr = tags.create("HR");
        CountedTag it = tags.create("IT");
        tags.bind(List.of(hr.tag().id(), it.tag().id()), "kb-1");

        tags.unbind(hr.tag().id(), "kb-1");
        tags.delete(it.tag().id());

        assertThat(tags.tagsOf("kb-1")).isEmpty();
        assertThat(tags.list()).extracting(t -> t.tag().name()).containsExactly("HR");
    }

    @Test
    void aBoundIdLabelsTheBaseItIsBoundTo() {
        CountedTag hr = tags.create("HR");
        bed.bases.bind("dify-ds", "kb-1");

        tags.bind(List.of(hr.tag().id()), "dify-ds");

        assertThat(tags.tagsOf("kb-1")).extracting(KnowledgeTag::name).containsExactly("HR");
    }

    @Test
    void anIssuedDatasetKeyPassesTheCheckUntilRevoked() {
        String key = keys.issue();

        assertThat(key).startsWith("dataset-").hasSize(32);
        assertThatCode(() -> keys.check(key)).doesNotThrowAnyException();
        keys.revoke(key);
        assertRefused(() -> keys.check(key), Reason.UNAUTHORIZED, "Access token is invalid");
        assertRefused(() -> keys.revoke(key), Reason.NOT_FOUND, "There is no such dataset key.");
    }

    @Test
    void aTokenNotShapedAsADatasetKeyOrNeverIssuedIsRefused() {
        String issued = keys.issue();

        assertRefused(() -> keys.check("app-" + issued.substring(8)), Reason.UNAUTHORIZED,
                "Access token is invalid");
        assertRefused(() -> keys.check("dataset-" + "9".repeat(24)), Reason.UNAUTHORIZED,
                "Access token is invalid");
        assertRefused(() -> keys.check(null), Reason.UNAUTHORIZED, "Access token is invalid");
        assertRefused(() -> keys.revoke(null), Reason.NOT_FOUND, "There is no such dataset key.");
        assertThatCode(() -> keys.check(issued)).doesNotThrowAnyException();
    }
}
