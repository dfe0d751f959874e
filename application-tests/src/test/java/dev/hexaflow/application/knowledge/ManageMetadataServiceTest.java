package dev.hexaflow.application.knowledge;

import static dev.hexaflow.application.knowledge.ManageKnowledgeBasesServiceTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.knowledge.port.in.KnowledgeException.Reason;
import dev.hexaflow.application.knowledge.port.in.ManageMetadataUseCase.CountedField;
import dev.hexaflow.application.knowledge.port.in.ManageMetadataUseCase.MetadataValue;
import dev.hexaflow.application.knowledge.port.in.SetDocumentMetadataCommand;
import dev.hexaflow.application.knowledge.port.in.SetDocumentMetadataCommand.DocumentValues;
import dev.hexaflow.application.knowledge.port.in.SetDocumentMetadataCommand.Value;
import dev.hexaflow.application.knowledge.service.ManageMetadataService;
import dev.hexaflow.domain.knowledge.IndexingTechnique;
import dev.hexaflow.domain.knowledge.KnowledgeDocument;
import dev.hexaflow.domain.knowledge.MetadataField;
import dev.hexaflow.domain.knowledge.MetadataType;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A base's metadata fields and its documents' values, on the in-memory repository: renames and deletions rewrite
 * the documents' values, and a refused change leaves every document as it was.
 */
class ManageMetadataServiceTest {

    private final KnowledgeBed bed = new KnowledgeBed();
    private final ManageMetadataService metadata = new ManageMetadataService(bed.repository, bed.clock,
            bed::nextId);
    private final KnowledgeDocument handbook;
    private final KnowledgeDocument policy;

    ManageMetadataServiceTest() {
        bed.base("kb", IndexingTechnique.ECONOMY);
        bed.base("other", IndexingTechnique.ECONOMY);
        handbook = bed.add("kb", "handbook", "Holidays: booked in the portal.");
        policy = bed.add("kb", "policy", "Security: lock laptops.");
    }

    @AfterEach
    void close() {
        bed.close();
    }

    private void set(KnowledgeDocument document, MetadataField field, String value) {
        metadata.setDocumentMetadata(new SetDocumentMetadataCommand("kb", List.of(new DocumentValues(document.id(),
                List.of(new Value(field.id(), field.name(), value))))));
    }

    private Map<String, String> valuesOf(KnowledgeDocument document) {
        return bed.manage.document(document.id()).orElseThrow().metadata();
    }

    @Test
    void fieldsAreListedWithHowManyDocumentsHoldAValue() {
        MetadataField team = metadata.create("kb", "team", MetadataType.STRING);
        MetadataField year = metadata.create("kb", "year", MetadataType.NUMBER);
        set(handbook, team, "HR");

        List<CountedField> fields = metadata.fields("kb").fields();

        assertThat(fields).extracting(f -> f.field().name()).containsExactly("team", "year");
        assertThat(fields).extracting(CountedField::documents).containsExactly(1, 0);
        assertThat(year.type()).isEqualTo(MetadataType.NUMBER);
        assertThat(metadata.fields("other").fields()).isEmpty();
    }

    @Test
    void aNameTakenEmptyBuiltInOrTooLongIsRefused() {
        metadata.create("kb", "team", MetadataType.STRING);

        assertRefused(() -> metadata.create("kb", "team", MetadataType.STRING), Reason.INVALID,
                "Metadata name already exists.");
        assertRefused(() -> metadata.create("kb", " ", MetadataType.STRING), Reason.INVALID,
                "Metadata name cannot be empty.");
        assertRefused(() -> metadata.create("kb", "document_name", MetadataType.STRING), Reason.INVALID,
                "Metadata name already exists in Built-in fields.");
        assertRefused(() -> metadata.create("kb", "n".repeat(256), MetadataType.STRING), Reason.INVALID,
                "Metadata name cannot exceed 255 characters.");
        assertRefused(() -> metadata.create("kb-none", "team", MetadataType.STRING), Reason.NOT_FOUND,
                "Dataset not found.");
        assertThat(metadata.fields("kb").fields()).hasSize(1);
    }

    @Test
    void theSameNameMayServeTwoBases() {
        metadata.create("kb", "team", MetadataType.STRING);

        MetadataField other = metadata.create("other", "team", MetadataType.STRING);

        assertThat(other.baseId()).isEqualTo("other");
    }

    @Test
    void aRenameCarriesEveryDocumentsValueToTheNewName() {
        MetadataField team = metadata.create("kb", "team", MetadataType.STRING);
        set(handbook, team, "HR");

        MetadataField renamed = metadata.rename("kb", team.id(), "department");

        assertThat(renamed.id()).isEqualTo(team.id());
        assertThat(valuesOf(handbook)).isEqualTo(Map.of("department", "HR"));
        assertThat(valuesOf(policy)).isEmpty();
    }

    @Test
    void aDeletedFieldTakesItsValuesFromEveryDocument() {
        MetadataField team = metadata.create("kb", "team", MetadataType.STRING);
        MetadataField year = metadata.create("kb", "year", MetadataType.NUMBER);
        metadata.setDocumentMetadata(new SetDocumentMetadataCommand("kb", List.of(new DocumentValues(handbook.id(),
                List.of(new Value(team.id(), "team", "HR"), new Value(year.id(), "year", "2026"))))));

        metadata.delete("kb", team.id());

        assertThat(valuesOf(handbook)).isEqualTo(Map.of("year", "2026"));
        assertRefused(() -> metadata.delete("kb", team.id()), Reason.NOT_FOUND, "Metadata not found.");
        assertRefused(() -> metadata.rename("other", year.id(), "y"), Reason.NOT_FOUND, "Metadata not found.");
    }

    @Test
    void settingValuesReplacesADocumentsValuesWholeAndANullValueHoldsNone() {
        MetadataField team = metadata.create("kb", "team", MetadataType.STRING);
        MetadataField year = metadata.create("kb", "year", MetadataType.NUMBER);
        set(handbook, team, "HR");

        set(handbook, year, "2026");
        set(policy, team, null);

        assertThat(valuesOf(handbook)).isEqualTo(Map.of("year", "2026"));
        assertThat(valuesOf(policy)).isEmpty();
    }

    @Test
    void oneBadOperationChangesNoDocument() {
        MetadataField team = metadata.create("kb", "team", MetadataType.STRING);
        KnowledgeDocument elsewhere = bed.add("other", "x", "Elsewhere: text.");
        DocumentValues good = new DocumentValues(handbook.id(), List.of(new Value(team.id(), "team", "HR")));

        assertRefused(() -> metadata.setDocumentMetadata(new SetDocumentMetadataCommand("kb", List.of(good,
                new DocumentValues(elsewhere.id(), List.of())))), Reason.INVALID, "Document not found.");
        assertRefused(() -> metadata.setDocumentMetadata(new SetDocumentMetadataCommand("kb", List.of(good,
                new DocumentValues(policy.id(), List.of(new Value("field-none", "x", "y")))))), Reason.INVALID,
                "Metadata not found.");
        assertRefused(() -> metadata.setDocumentMetadata(new SetDocumentMetadataCommand("kb", List.of(good,
                new DocumentValues(policy.id(), List.of(new Value(team.id(), "squad", "y")))))), Reason.INVALID,
                "Metadata name 'squad' is not the name of metadata " + team.id() + ".");
        assertRefused(() -> set(policy, team, "v".repeat(1001)), Reason.INVALID,
                "Metadata value cannot exceed 1000 characters.");

        assertThat(valuesOf(handbook)).isEmpty();
        assertThat(valuesOf(policy)).isEmpty();
    }

    @Test
    void aDocumentsValuesShowTheirFieldsAndTheBuiltInOnesOnlyWhenEnabled() {
        MetadataField team = metadata.create("kb", "team", MetadataType.STRING);
        set(handbook, team, "HR");
        KnowledgeDocument kept = bed.manage.document(handbook.id()).orElseThrow();

        List<MetadataValue> plain = metadata.valuesOf(kept);
        metadata.enableBuiltIn("kb", true);
        List<MetadataValue> withBuiltIn = metadata.valuesOf(kept);

        assertThat(plain).containsExactly(new MetadataValue(team.id(), "team", MetadataType.STRING, "HR"));
        assertThat(metadata.fields("kb").builtInEnabled()).isTrue();
        assertThat(withBuiltIn).contains(new MetadataValue("built-in", "document_name", MetadataType.STRING,
                "handbook"));
        assertThat(withBuiltIn).anySatisfy(v -> assertThat(v.name()).isEqualTo("source"));
    }
}
