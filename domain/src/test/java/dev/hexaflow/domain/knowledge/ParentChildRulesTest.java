package dev.hexaflow.domain.knowledge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class ParentChildRulesTest {

    static final SplittingRules PARAGRAPHS = SplittingRules.custom("\\n\\n", 500, 0, true, false);
    static final SplittingRules LINES = SplittingRules.custom("\\n", 50, 0, true, false);

    @Test
    void paragraphParentsAreSplitIntoTheirLines() {
        ParentChildRules rules = new ParentChildRules(ParentChildRules.ParentMode.PARAGRAPH, PARAGRAPHS, LINES);

        var splits = rules.split("A\nB\n\nC\n\n\n");

        assertThat(splits).hasSize(2);
        assertThat(splits.get(0).parent()).isEqualTo("A\nB");
        assertThat(splits.get(0).children()).containsExactly("A", "B");
        assertThat(splits.get(1).children()).containsExactly("C");
    }

    @Test
    void aFullDocParentIsTheWholeTextCutAtTenThousandTokens() {
        ParentChildRules rules = new ParentChildRules(ParentChildRules.ParentMode.FULL_DOC, PARAGRAPHS, LINES);
        String long1 = "word ".repeat(12_000);

        assertThat(rules.split("A\n\nB")).singleElement().satisfies(split -> {
            assertThat(split.parent()).isEqualTo("A\n\nB");
            assertThat(split.children()).containsExactly("A", "B");
        });
        assertThat(TextMeasure.tokens(rules.split(long1).get(0).parent())).isEqualTo(10_000);
        assertThat(rules.split("  ")).isEmpty();
    }

    @Test
    void aMetadataFieldRefusesALongBlankOrBuiltInName() {
        String longest = "n".repeat(MetadataField.MAX_NAME);

        assertThat(new MetadataField("m", "b", longest, MetadataType.TIME, Instant.EPOCH).name()).hasSize(255);
        assertThatThrownBy(() -> new MetadataField("m", "b", longest + "n", MetadataType.STRING, Instant.EPOCH))
                .hasMessage("Metadata name cannot exceed 255 characters.");
        assertThatThrownBy(() -> new MetadataField("m", "b", " ", MetadataType.STRING, Instant.EPOCH))
                .hasMessage("Metadata name cannot be empty.");
        assertThatThrownBy(() -> new MetadataField("m", "b", "document_name", MetadataType.STRING, Instant.EPOCH))
                .hasMessage("Metadata name already exists in Built-in fields.");
    }
}
