package dev.hexaflow.domain.knowledge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TextSplitterTest {

    @Test
    void aShortTextIsOneChunkWithItsExtraSpacesRemovedUnderTheAutomaticRules() {
        List<String> chunks = new TextSplitter(SplittingRules.AUTOMATIC).split("  Hello   world.\n\n\n\nBye  ");

        assertThat(chunks).containsExactly("Hello world.\n\nBye");
    }

    @Test
    void aCustomSeparatorSplitsFirstAndEmptyPiecesAreDropped() {
        SplittingRules rules = SplittingRules.custom("\\n", 500, 0, true, false);

        assertThat(new TextSplitter(rules).split("one\ntwo\n\nthree")).containsExactly("one", "two", "three");
    }

    @Test
    void urlsAndEmailsAreRemovedOnlyWhenTheRulesSaySoAfterSpacesAsDifyDoes() {
        String text = "Write to a@b.org or see https://example.com/x now";

        assertThat(new TextSplitter(SplittingRules.custom("", 500, 0, true, true)).split(text))
                .containsExactly("Write to  or see  now");
        assertThat(new TextSplitter(SplittingRules.AUTOMATIC).split(text)).containsExactly(text);
    }

    @Test
    void aLongTextIsSplitAtSentencesIntoChunksOfAtMostMaxTokensThatOverlap() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 60; i++) {
            text.append("Sentence number ").append(i).append(" says something. ");
        }
        SplittingRules rules = SplittingRules.custom("", 50, 10, true, false);

        List<String> chunks = new TextSplitter(rules).split(text.toString());

        assertThat(chunks).hasSizeGreaterThan(5);
        assertThat(chunks).allSatisfy(c -> assertThat(TextMeasure.tokens(c)).isLessThanOrEqualTo(50));
        String lastOfFirst = chunks.get(0).substring(chunks.get(0).lastIndexOf("Sentence"));
        assertThat(chunks.get(1)).startsWith(lastOfFirst.replaceAll("\\.$", ""));
    }

    @Test
    void chineseTextIsSplitAtItsFullStops() {
        String sentence = "知识库把文档切成小段以便检索。";
        String text = sentence.repeat(20);

        List<String> chunks = new TextSplitter(SplittingRules.custom("", 60, 0, true, false)).split(text);

        assertThat(chunks).hasSizeGreaterThan(1);
        assertThat(String.join("", chunks).replace("。", "")).isEqualTo(text.replace("。", ""));
        assertThat(chunks).allSatisfy(c -> assertThat(TextMeasure.tokens(c)).isLessThanOrEqualTo(60));
    }

    @Test
    void rulesRefuseAnOverlapAsLongAsTheChunk() {
        assertThatThrownBy(() -> SplittingRules.custom("\\n", 100, 100, true, false))
                .hasMessageContaining("chunk_overlap");
    }

    @Test
    void metadataConditionsAreCombinedByTheirLogicalOperator() {
        MetadataFilter.Condition isHr = new MetadataFilter.Condition("team", MetadataFilter.Operator.IS, "hr");
        MetadataFilter.Condition recent = new MetadataFilter.Condition("year", MetadataFilter.Operator.GREATER, "2020");

        assertThat(MetadataFilter.of("and", List.of(isHr, recent)).keeps(Map.of("team", "hr", "year", "2024")))
                .isTrue();
        assertThat(MetadataFilter.of("and", List.of(isHr, recent)).keeps(Map.of("team", "hr", "year", "2019")))
                .isFalse();
        assertThat(MetadataFilter.of("or", List.of(isHr, recent)).keeps(Map.of("year", "2021"))).isTrue();
        assertThat(MetadataFilter.NONE.keeps(Map.of())).isTrue();
    }

    @Test
    void aDocumentInErrorSaysWhyAndCanBeIndexedAgain() {
        KnowledgeDocument doc = new KnowledgeDocument("d", "b", "n", "text", 3, "h", DocumentStatus.INDEXING,
                java.util.Optional.empty(), true, Map.of(), java.time.Instant.EPOCH);

        KnowledgeDocument failed = doc.failed("embeddings answered 500");

        assertThat(failed.error()).contains("embeddings answered 500");
        assertThat(failed.searchable()).isFalse();
        assertThatThrownBy(failed::completed).isInstanceOf(IllegalStateException.class);
        assertThat(failed.reindexing().completed().searchable()).isTrue();
    }
}
