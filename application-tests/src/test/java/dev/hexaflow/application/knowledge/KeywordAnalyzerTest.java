package dev.hexaflow.application.knowledge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.knowledge.port.in.CreateKnowledgeBaseCommand;
import dev.hexaflow.application.knowledge.port.in.RetrieveKnowledgeQuery;
import dev.hexaflow.application.knowledge.port.in.RetrievedChunk;
import dev.hexaflow.domain.knowledge.IndexingTechnique;
import dev.hexaflow.domain.knowledge.KeywordAnalyzer;
import dev.hexaflow.domain.knowledge.RetrievalSettings;
import dev.hexaflow.domain.knowledge.SearchMethod;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A base's keyword analyzer: auto by default, so a question finds other forms of a chunk's words; chosen at
 * creation and changed by an update, which holds from the next search with nothing indexed again.
 */
class KeywordAnalyzerTest {

    private static final String PARKING = "Visitor parking is in Lot X, next to the main entrance.";
    private final KnowledgeBed bed = new KnowledgeBed();

    @AfterEach
    void close() {
        bed.close();
    }

    private List<String> byWords(String baseId, String query) {
        return bed.retrieve.retrieve(RetrieveKnowledgeQuery.of(baseId, query, new RetrievalSettings(
                SearchMethod.KEYWORD_SEARCH, 3, Optional.empty(), 0.5, 0.5))).stream()
                .map(hit -> hit.chunk().content()).toList();
    }

    @Test
    void aNewBaseReadsWordsByTheirScriptSoAQuestionFindsOtherFormsOfTheChunksWords() {
        bed.base("kb", IndexingTechnique.ECONOMY);
        bed.add("kb", "parking.md", PARKING + "\n\n年假：每位员工每年享有二十五天带薪年假。");

        assertThat(bed.bases.find("kb").orElseThrow().analyzer()).isEqualTo(KeywordAnalyzer.AUTO);
        assertThat(byWords("kb", "where do visitors park")).first().asString().startsWith("Visitor parking");
        assertThat(byWords("kb", "带薪年假")).first().asString().startsWith("年假");
    }

    @Test
    void aChangeOfAnalyzerHoldsFromTheNextSearchWithNothingIndexedAgain() {
        bed.bases.create(new CreateKnowledgeBaseCommand(Optional.of("kb"), "Handbook", "", IndexingTechnique.ECONOMY,
                Optional.empty(), KeywordAnalyzer.CJK));
        bed.add("kb", "parking.md", PARKING);
        long indexed = bed.index.count();

        assertThat(byWords("kb", "where do visitors park")).as("no stemming, as before").isEmpty();
        assertThat(byWords("kb", "visitor parking")).hasSize(1);

        bed.bases.update("kb", Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.of(KeywordAnalyzer.ENGLISH));
        assertThat(bed.bases.find("kb").orElseThrow().analyzer()).isEqualTo(KeywordAnalyzer.ENGLISH);
        assertThat(byWords("kb", "where do visitors park")).containsExactly(PARKING);

        bed.bases.update("kb", Optional.of("Staff handbook"), Optional.empty(), Optional.empty(), Optional.empty());
        assertThat(bed.bases.find("kb").orElseThrow().analyzer()).as("an update that names none keeps it")
                .isEqualTo(KeywordAnalyzer.ENGLISH);
        assertThat(bed.index.count()).as("nothing indexed again").isEqualTo(indexed);
    }

    @Test
    void hybridSearchWeighsTheStemmedWordsToo() {
        bed.base("hq", IndexingTechnique.HIGH_QUALITY);
        bed.add("hq", "parking.md", PARKING);

        List<RetrievedChunk> hits = bed.retrieve.retrieve(RetrieveKnowledgeQuery.of("hq", "where do visitors park",
                new RetrievalSettings(SearchMethod.HYBRID_SEARCH, 3, Optional.empty(), 0.3, 0.7)));
        // 0.3 × meaning + 0.7 × words: at least 0.7 only when the words matched.
        assertThat(hits).singleElement().satisfies(hit -> assertThat(hit.score()).isGreaterThanOrEqualTo(0.7));
    }
}
