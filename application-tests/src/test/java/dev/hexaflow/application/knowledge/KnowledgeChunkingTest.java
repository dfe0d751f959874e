package dev.hexaflow.application.knowledge;

import static dev.hexaflow.application.knowledge.ManageKnowledgeBasesServiceTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.application.knowledge.port.in.AddDocumentCommand;
import dev.hexaflow.application.knowledge.port.in.KnowledgeException.Reason;
import dev.hexaflow.application.knowledge.service.AddDocumentService;
import dev.hexaflow.domain.knowledge.Chunk;
import dev.hexaflow.domain.knowledge.ChildChunk;
import dev.hexaflow.domain.knowledge.IndexingTechnique;
import dev.hexaflow.domain.knowledge.KnowledgeDocument;
import dev.hexaflow.domain.knowledge.ParentChildRules;
import dev.hexaflow.domain.knowledge.ParentChildRules.ParentMode;
import dev.hexaflow.domain.knowledge.SplittingRules;
import dev.hexaflow.domain.knowledge.TextMeasure;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How a document's rules cut it into chunks when it is added (max_tokens, chunk_overlap, the clean rules, parent and
 * child), and the bound on the chunks of one document, on the knowledge bed.
 */
class KnowledgeChunkingTest {

    /** Three hundred distinct words, one token each, and no sentence or paragraph to split at. */
    private static final String WORDS = IntStream.rangeClosed(1, 300).mapToObj(i -> "w" + i)
            .collect(Collectors.joining(" "));

    private final KnowledgeBed bed = new KnowledgeBed();

    KnowledgeChunkingTest() {
        bed.base("kb", IndexingTechnique.ECONOMY);
    }

    @AfterEach
    void close() {
        bed.close();
    }

    private List<String> chunksOf(String name, String text, SplittingRules rules) {
        KnowledgeDocument document = bed.documents.add(AddDocumentCommand.text("kb", name, text).withRules(rules));
        return bed.manage.chunks(document.id()).stream().map(Chunk::content).toList();
    }

    private static AddDocumentCommand hierarchical(String name, String text, ParentMode mode, SplittingRules parent,
            SplittingRules child) {
        return new AddDocumentCommand("kb", name, new AddDocumentCommand.Text(text), parent, Map.of(),
                Optional.of(new ParentChildRules(mode, parent, child)));
    }

    @Test
    void noChunkIsLongerThanMaxTokensAndASmallerMaxTokensMakesMoreChunks() {
        List<String> small = chunksOf("small", WORDS, SplittingRules.custom("", 50, 0, true, false));
        List<String> large = chunksOf("large", WORDS, SplittingRules.custom("", 200, 0, true, false));

        assertThat(small).hasSizeGreaterThan(large.size()).allSatisfy(
                chunk -> assertThat(TextMeasure.tokens(chunk)).isLessThanOrEqualTo(50));
        assertThat(large).allSatisfy(chunk -> assertThat(TextMeasure.tokens(chunk)).isLessThanOrEqualTo(200));
        assertThat(String.join(" ", small)).as("without overlap no word is lost or repeated").isEqualTo(WORDS);
    }

    @Test
    void anOverlapStartsEachChunkWithTheEndOfTheOneBefore() {
        List<String> chunks = chunksOf("overlapping", WORDS, SplittingRules.custom("", 50, 20, true, false));

        assertThat(chunks).hasSizeGreaterThan(6);
        for (int i = 1; i < chunks.size(); i++) {
            String firstWord = chunks.get(i).split(" ")[0];
            assertThat(chunks.get(i - 1).split(" ")).as("chunk %d starts inside chunk %d", i + 1, i)
                    .contains(firstWord);
        }
    }

    @Test
    void theCleanRulesCollapseSpacesAndTakeOutUrlsAndEmailsOnlyWhenAsked() {
        String text = "Write   to hr@example.com or see https://intranet.example/leave today.";

        List<String> cleaned = chunksOf("cleaned", text, SplittingRules.custom("\\n\\n", 500, 0, true, true));
        List<String> kept = chunksOf("kept", text, SplittingRules.custom("\\n\\n", 500, 0, false, false));

        assertThat(cleaned).singleElement().asString().doesNotContain("hr@example.com", "https://", "   ")
                .startsWith("Write to");
        assertThat(kept).singleElement().asString().contains("Write   to hr@example.com", "https://intranet");
    }

    @Test
    void theSameTextSplitByOtherRulesIsAnotherDocument() {
        KnowledgeDocument byParagraph = bed.add("kb", "notes", "Leave: 25 days.\n\nTravel: economy.");

        KnowledgeDocument whole = bed.documents.add(AddDocumentCommand.text("kb", "notes",
                "Leave: 25 days.\n\nTravel: economy.").withRules(SplittingRules.custom("***", 500, 0, true, false)));

        assertThat(whole.id()).isNotEqualTo(byParagraph.id());
        assertThat(bed.manage.chunks(byParagraph.id())).hasSize(2);
        assertThat(bed.manage.chunks(whole.id())).hasSize(1);
    }

    @Test
    void aSplitPastTheChunkBudgetIsRefusedNamingTheBudgetAndHowToSplitInstead() {
        AddDocumentService small = new AddDocumentService(bed.repository, bed.index, bed.embeddings, bed.extractor,
                bed.clock, bed::nextId, bed.storage, 5);

        assertRefused(() -> small.add(AddDocumentCommand.text("kb", "words", WORDS)
                .withRules(SplittingRules.custom("", 50, 0, true, false))), Reason.INVALID,
                "The document would be split into more than 5 chunks, the most one document may have; split it with "
                        + "a larger max_tokens, a smaller chunk_overlap or another separator.");
        assertThat(small.add(AddDocumentCommand.text("kb", "words", WORDS)
                .withRules(SplittingRules.custom("", 200, 0, true, false))).status().wireName())
                .isEqualTo("completed");
    }

    /** An overlap near a whole chunk repeats text rather than making chunks: the characters are bounded too. */
    @Test
    void aSplitHoldingMoreTextThanTheBudgetIsRefusedNamingTheCharacters() {
        AddDocumentService one = new AddDocumentService(bed.repository, bed.index, bed.embeddings, bed.extractor,
                bed.clock, bed::nextId, bed.storage, 1);

        assertRefused(() -> one.add(AddDocumentCommand.text("kb", "long", "x".repeat(4_001))
                .withRules(SplittingRules.custom("", 4000, 0, true, false))), Reason.INVALID,
                "The document's chunks would hold more than 4000 characters, overlaps counted, the most one document "
                        + "may have; split it with a smaller chunk_overlap.");
        assertThat(bed.manage.documents("kb")).isEmpty();
    }

    @Test
    void aParentsChildrenAreTakenFromTheSameBudget() {
        SplittingRules paragraphs = SplittingRules.custom("\\n\\n", 500, 0, true, false);
        SplittingRules sentences = SplittingRules.custom(". ", 500, 0, true, false);
        String text = "Leave: 25 days. Sick: paid. Travel: economy";
        AddDocumentService three = new AddDocumentService(bed.repository, bed.index, bed.embeddings, bed.extractor,
                bed.clock, bed::nextId, bed.storage, 3);
        AddDocumentService four = new AddDocumentService(bed.repository, bed.index, bed.embeddings, bed.extractor,
                bed.clock, bed::nextId, bed.storage, 4);

        // One parent and its three children are four chunks.
        assertRefused(() -> three.add(hierarchical("tree", text, ParentMode.PARAGRAPH, paragraphs, sentences)),
                Reason.INVALID, "The document would be split into more than 3 chunks, the most one document may "
                        + "have; split it with a larger max_tokens, a smaller chunk_overlap or another separator.");
        KnowledgeDocument kept = four.add(hierarchical("tree", text, ParentMode.PARAGRAPH, paragraphs, sentences));

        assertThat(bed.manage.chunks(kept.id())).hasSize(1);
        assertThat(bed.manage.childChunks(kept.id())).hasSize(3);
    }

    @Test
    void aFullDocParentIsTheWholeTextAndAHitOnAnyChildAnswersIt() {
        SplittingRules sentences = SplittingRules.custom(". ", 500, 0, true, false);
        String text = "Leave: 25 days.\n\nSick: paid. Travel: economy fares.";

        KnowledgeDocument document = bed.documents.add(hierarchical("handbook", text, ParentMode.FULL_DOC,
                sentences, sentences));

        assertThat(bed.manage.chunks(document.id())).extracting(Chunk::content).containsExactly(text);
        assertThat(bed.manage.childChunks(document.id())).extracting(ChildChunk::content).hasSize(2)
                .allSatisfy(child -> assertThat(text).contains(child));
        assertThat(bed.found("kb", "economy")).containsExactly(text);
        assertThat(bed.found("kb", "leave")).containsExactly(text);
    }

    @Test
    void aReplaceThatWouldPassTheBudgetKeepsTheOldTextSearchable() {
        AddDocumentService small = new AddDocumentService(bed.repository, bed.index, bed.embeddings, bed.extractor,
                bed.clock, bed::nextId, bed.storage, 2);
        KnowledgeDocument document = small.add(AddDocumentCommand.text("kb", "notes", "Leave: 25 days.")
                .withRules(SplittingRules.custom("\\n\\n", 500, 0, true, false)));

        assertRefused(() -> small.replace(document.id(), AddDocumentCommand.text("kb", "notes", "a\n\nb\n\nc")
                .withRules(SplittingRules.custom("\\n\\n", 500, 0, true, false))), Reason.INVALID,
                "The document would be split into more than 2 chunks, the most one document may have; split it with "
                        + "a larger max_tokens, a smaller chunk_overlap or another separator.");
        assertRefused(() -> small.replace(document.id(), AddDocumentCommand.text("kb", "notes", " \n ")),
                Reason.INVALID, "The document notes has no text.");
        assertThat(bed.found("kb", "leave")).containsExactly("Leave: 25 days.");
    }

    @Test
    void aBudgetOfNoChunkIsAMistakeInTheWiring() {
        assertThatThrownBy(() -> new AddDocumentService(bed.repository, bed.index, bed.embeddings, bed.extractor,
                bed.clock, bed::nextId, bed.storage, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the most chunks of a document must be at least 1, was 0");
    }
}
