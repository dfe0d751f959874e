package dev.hexaflow.adapters.persistence.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.application.knowledge.port.out.KnowledgeIndex.Hit;
import dev.hexaflow.application.knowledge.port.out.StoredChunk;
import dev.hexaflow.domain.knowledge.Chunk;
import dev.hexaflow.domain.knowledge.KeywordAnalyzer;
import dev.hexaflow.domain.knowledge.TextMeasure;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The keyword search's quality on a small set of questions with the chunk each should find
 * ({@code knowledge/keyword-search-questions.tsv}): English questions that use other forms of the chunk's words,
 * some that share a word as it stands, and Chinese and Japanese ones. Each is asked with every analyzer, and the
 * figures (recall at 1 and 3, mean reciprocal rank over the first 10) are printed, as BENCHMARKS.md quotes them:
 * {@code mvn -o -q test -pl adapters-persistence -am -Dtest=KeywordSearchQualityTest
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class KeywordSearchQualityTest {

    private static final int DEPTH = 10;
    private static final List<Question> QUESTIONS = new ArrayList<>();
    private static LuceneKnowledgeIndex index;

    record Question(String group, String text, String expected) {
    }

    /** Recall at 1 and 3 and the mean reciprocal rank of one group's questions under one analyzer. */
    record Figures(int asked, int atOne, int atThree, double mrr, List<String> missed) {
        @Override
        public String toString() {
            return String.format("%d/%d at 1, %d/%d at 3, MRR %.3f", atOne, asked, atThree, asked, mrr);
        }
    }

    @BeforeAll
    static void indexTheChunks() throws IOException {
        index = LuceneKnowledgeIndex.inMemory();
        List<StoredChunk> chunks = new ArrayList<>();
        try (InputStream in = KeywordSearchQualityTest.class.getResourceAsStream(
                "/knowledge/keyword-search-questions.tsv")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] cells = line.split("\t");
                if (cells[0].equals("chunk")) {
                    chunks.add(chunk(cells[1], cells[2]));
                } else {
                    QUESTIONS.add(new Question(cells[0], cells[1], cells[2]));
                }
            }
        }
        index.add(chunks);
    }

    @AfterAll
    static void close() {
        index.close();
    }

    @Test
    void autoFindsEveryQuestionInItsFirstThreeAndTheWordFormsTodaysAnalysisMissed() {
        Map<KeywordAnalyzer, Map<String, Figures>> all = new EnumMap<>(KeywordAnalyzer.class);
        for (KeywordAnalyzer analyzer : KeywordAnalyzer.values()) {
            all.put(analyzer, figures(analyzer));
        }
        print(all);

        Map<String, Figures> auto = all.get(KeywordAnalyzer.AUTO);
        Map<String, Figures> before = all.get(KeywordAnalyzer.CJK);
        assertThat(QUESTIONS).as("the set's size").hasSizeBetween(20, 40);
        auto.forEach((group, f) -> assertThat(f.missed()).as("auto's misses at 3 in " + group).isEmpty());
        assertThat(before.get("forms").atThree()).as("today's analysis (CJK pairs, no stemming) at 3 on word forms")
                .isLessThan(auto.get("forms").atThree());
        assertThat(auto.get("forms").mrr()).isGreaterThan(before.get("forms").mrr());
        assertThat(auto.get("cjk").mrr()).as("auto loses nothing on Chinese and Japanese")
                .isGreaterThanOrEqualTo(before.get("cjk").mrr());
        assertThat(auto.get("forms").mrr()).as("auto stems English as the english analyzer does")
                .isEqualTo(all.get(KeywordAnalyzer.ENGLISH).get("forms").mrr());
    }

    private static Map<String, Figures> figures(KeywordAnalyzer analyzer) {
        Map<String, List<Question>> byGroup = new LinkedHashMap<>();
        QUESTIONS.forEach(q -> byGroup.computeIfAbsent(q.group(), g -> new ArrayList<>()).add(q));
        Map<String, Figures> figures = new LinkedHashMap<>();
        byGroup.forEach((group, questions) -> {
            int atOne = 0;
            int atThree = 0;
            double reciprocal = 0;
            List<String> missed = new ArrayList<>();
            for (Question q : questions) {
                List<String> found = index.byWords("b1", analyzer, q.text(), null, DEPTH).stream()
                        .map(Hit::chunkId).toList();
                int rank = found.indexOf(q.expected()) + 1;
                atOne += rank == 1 ? 1 : 0;
                atThree += rank >= 1 && rank <= 3 ? 1 : 0;
                reciprocal += rank == 0 ? 0 : 1.0 / rank;
                if (rank == 0 || rank > 3) {
                    missed.add(q.text());
                }
            }
            figures.put(group, new Figures(questions.size(), atOne, atThree, reciprocal / questions.size(),
                    missed));
        });
        return figures;
    }

    private static void print(Map<KeywordAnalyzer, Map<String, Figures>> all) {
        StringBuilder table = new StringBuilder("\n| analyzer | group | recall@1 | recall@3 | MRR@10 | missed at 3 |\n"
                + "|---|---|---|---|---|---|\n");
        all.forEach((analyzer, groups) -> groups.forEach((group, f) -> table.append(String.format(
                "| %s | %s | %d/%d | %d/%d | %.3f | %s |%n", analyzer.wireName(), group, f.atOne(), f.asked(),
                f.atThree(), f.asked(), f.mrr(), String.join("; ", f.missed())))));
        System.out.println(table);
    }

    private static StoredChunk chunk(String id, String text) {
        return StoredChunk.of(new Chunk(id, "d-" + id, "b1", 1, text, text.length(), text.length() / 4, List.of(),
                TextMeasure.hash(text), 0, true), null);
    }
}
