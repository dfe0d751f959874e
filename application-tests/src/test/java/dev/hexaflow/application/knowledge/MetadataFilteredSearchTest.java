package dev.hexaflow.application.knowledge;

import static dev.hexaflow.application.knowledge.ManageKnowledgeBasesServiceTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.knowledge.port.in.AddDocumentCommand;
import dev.hexaflow.application.knowledge.port.in.KnowledgeException.Reason;
import dev.hexaflow.application.knowledge.port.in.RetrieveKnowledgeQuery;
import dev.hexaflow.application.knowledge.port.in.SetDocumentMetadataCommand;
import dev.hexaflow.application.knowledge.port.in.SetDocumentMetadataCommand.DocumentValues;
import dev.hexaflow.application.knowledge.port.in.SetDocumentMetadataCommand.Value;
import dev.hexaflow.application.knowledge.service.ManageMetadataService;
import dev.hexaflow.domain.knowledge.IndexingTechnique;
import dev.hexaflow.domain.knowledge.KnowledgeDocument;
import dev.hexaflow.domain.knowledge.MetadataField;
import dev.hexaflow.domain.knowledge.MetadataFilter;
import dev.hexaflow.domain.knowledge.MetadataFilter.Condition;
import dev.hexaflow.domain.knowledge.MetadataFilter.Operator;
import dev.hexaflow.domain.knowledge.MetadataType;
import dev.hexaflow.domain.knowledge.RetrievalSettings;
import dev.hexaflow.domain.knowledge.SearchMethod;
import dev.hexaflow.domain.knowledge.SplittingRules;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Searches that keep only the documents a metadata filter passes, with the values set through the metadata use
 * case or given when a document is added; every document of the base holds the word "policy", so a filter alone
 * decides what is found.
 */
class MetadataFilteredSearchTest {

    private final KnowledgeBed bed = new KnowledgeBed();
    private final ManageMetadataService metadata = new ManageMetadataService(bed.repository, bed.clock,
            bed::nextId);

    MetadataFilteredSearchTest() {
        bed.base("kb", IndexingTechnique.ECONOMY);
        document("hr.md", Map.of("team", "hr", "year", "2026", "updated", "2026-03-01"));
        document("it.md", Map.of("team", "it", "year", "999", "updated", "2025-11-30"));
        document("plain.md", Map.of());
    }

    @AfterEach
    void close() {
        bed.close();
    }

    private KnowledgeDocument document(String name, Map<String, String> values) {
        return bed.documents.add(AddDocumentCommand.text("kb", name, "The " + name + " policy.")
                .withRules(SplittingRules.custom("\\n\\n", 500, 0, true, false)).withMetadata(values));
    }

    /** The names of the documents a search for "policy" finds through the filter, sorted. */
    private List<String> found(String logical, Condition... conditions) {
        return bed.retrieve.retrieve(RetrieveKnowledgeQuery.of("kb", "policy", RetrievalSettings.defaults(
                SearchMethod.KEYWORD_SEARCH)).filtered(MetadataFilter.of(logical, List.of(conditions)))).stream()
                .map(hit -> hit.document().name()).sorted().toList();
    }

    private static Condition where(String name, Operator operator, String value) {
        return new Condition(name, operator, value);
    }

    @Test
    void anAndFilterKeepsWhatPassesEveryConditionAndAnOrFilterWhatPassesAny() {
        assertThat(found("and", where("team", Operator.IS, "hr"), where("year", Operator.IS, "999"))).isEmpty();
        assertThat(found("or", where("team", Operator.IS, "hr"), where("year", Operator.IS, "999")))
                .containsExactly("hr.md", "it.md");
        assertThat(found("and")).as("no condition keeps every document").hasSize(3);
    }

    /** A value a document lacks is no value: only the conditions that hold for nothing keep it. */
    @Test
    void aDocumentWithoutTheFieldPassesOnlyTheNegativeOperators() {
        assertThat(found("and", where("team", Operator.EMPTY, ""))).containsExactly("plain.md");
        assertThat(found("and", where("team", Operator.IS_NOT, "hr"))).containsExactly("it.md", "plain.md");
        assertThat(found("and", where("team", Operator.NOT_CONTAINS, "h"))).containsExactly("it.md", "plain.md");
        assertThat(found("and", where("team", Operator.NOT_EMPTY, ""))).containsExactly("hr.md", "it.md");
        assertThat(found("and", where("team", Operator.START_WITH, ""))).containsExactly("hr.md", "it.md");
    }

    @Test
    void numbersCompareAsNumbersNotAsText() {
        // As text "999" sorts after "2026".
        assertThat(found("and", where("year", Operator.GREATER, "1000"))).containsExactly("hr.md");
        assertThat(found("and", where("year", Operator.LESS_OR_EQUAL, "999"))).containsExactly("it.md");
        assertThat(found("and", where("year", Operator.EQUAL, "2026.0"))).containsExactly("hr.md");
    }

    @Test
    void datesCompareBeforeAndAfter() {
        assertThat(found("and", where("updated", Operator.BEFORE, "2026-01-01"))).containsExactly("it.md");
        assertThat(found("and", where("updated", Operator.AFTER, "2026-01-01"))).containsExactly("hr.md");
    }

    @Test
    void inAndNotInReadTheValueAsACommaSeparatedList() {
        assertThat(found("and", where("team", Operator.IN, "it , sales"))).containsExactly("it.md");
        assertThat(found("and", where("team", Operator.NOT_IN, "it,sales"))).containsExactly("hr.md", "plain.md");
    }

    @Test
    void aFilterMayNameTheBuiltInDocumentName() {
        assertThat(found("and", where("document_name", Operator.END_WITH, "it.md"))).containsExactly("it.md");
    }

    @Test
    void valuesSetThroughTheMetadataUseCaseAreFilteredOnAtOnceAndFollowARename() {
        MetadataField owner = metadata.create("kb", "owner", MetadataType.STRING);
        KnowledgeDocument plain = bed.manage.documents("kb").stream().filter(d -> d.name().equals("plain.md"))
                .findFirst().orElseThrow();
        metadata.setDocumentMetadata(new SetDocumentMetadataCommand("kb", List.of(new DocumentValues(plain.id(),
                List.of(new Value(owner.id(), "owner", "ada"))))));

        assertThat(found("and", where("owner", Operator.IS, "ada"))).containsExactly("plain.md");
        metadata.rename("kb", owner.id(), "maintainer");

        assertThat(found("and", where("owner", Operator.IS, "ada"))).isEmpty();
        assertThat(found("and", where("maintainer", Operator.IS, "ada"))).containsExactly("plain.md");
    }

    @Test
    void aBaseHoldsAtMostAHundredFields() {
        for (int i = 1; i <= MetadataField.MAX_PER_BASE; i++) {
            metadata.create("kb", "field" + i, MetadataType.STRING);
        }

        assertRefused(() -> metadata.create("kb", "one-more", MetadataType.NUMBER), Reason.INVALID,
                "Metadata fields cannot exceed 100 per dataset.");
        assertThat(metadata.fields("kb").fields()).hasSize(100);
    }

    @Test
    void anIdBoundToTheBaseReachesItsFields() {
        bed.bases.bind("dify-ds", "kb");

        MetadataField team = metadata.create("dify-ds", "owner", MetadataType.STRING);

        assertThat(team.baseId()).isEqualTo("kb");
        assertThat(metadata.fields("kb").fields()).extracting(f -> f.field().name()).containsExactly("owner");
        assertRefused(() -> metadata.fields("unbound"), Reason.NOT_FOUND, "Dataset not found.");
    }
}
