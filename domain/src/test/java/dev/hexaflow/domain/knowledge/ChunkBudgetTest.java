package dev.hexaflow.domain.knowledge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Rules that would split one document into a flood of chunks: Dify's own refusals of the rules, and the budget of
 * chunks one document may take, which ends the split as soon as it is spent rather than after.
 */
class ChunkBudgetTest {

    /** About a megabyte of words, as a document's text. */
    private static final String MEGABYTE_OF_WORDS = "lorem ipsum dolor sit amet consectetur ".repeat(26_000);

    @Test
    void customRulesOutsideDifysBoundsAreRefusedWithDifysMessages() {
        assertThatThrownBy(() -> SplittingRules.custom(" ", 4001, 0, false, false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Custom segment length should be between 50 and 4000.");
        assertThatThrownBy(() -> SplittingRules.custom(" ", 49, 0, false, false))
                .hasMessage("Custom segment length should be between 50 and 4000.");
        assertThatThrownBy(() -> SplittingRules.custom(" ", 500, 501, false, false))
                .hasMessage("Got a larger chunk overlap (501) than chunk size (500), should be smaller.");
        assertThat(SplittingRules.custom(" ", 500, 499, false, false).overlap()).isEqualTo(499);
    }

    @Test
    void aMegabyteSplitAtEverySpaceIsRefusedAtTheBudgetNamingIt() {
        SplittingRules everyWord = SplittingRules.custom(" ", 4000, 3999, false, false);
        long began = System.nanoTime();

        assertThatThrownBy(() -> new TextSplitter(everyWord).split(MEGABYTE_OF_WORDS, new ChunkBudget(10_000)))
                .isInstanceOf(TooManyChunksException.class)
                .hasMessage("The document would be split into more than 10000 chunks, the most one document may "
                        + "have; split it with a larger max_tokens, a smaller chunk_overlap or another separator.");
        assertThat((System.nanoTime() - began) / 1e9).isLessThan(5.0);
    }

    @Test
    void anUnbrokenTextSplitBetweenCharactersWithAlmostWholeChunksOfOverlapIsRefusedBeforeItFillsTheHeap() {
        String unbroken = "a".repeat(1_000_000);
        SplittingRules overlapping = SplittingRules.custom("\\n\\n", 4000, 3999, false, false);

        assertThatThrownBy(() -> new TextSplitter(overlapping).split(unbroken, new ChunkBudget(10_000)))
                .isInstanceOf(TooManyChunksException.class);
    }

    @Test
    void theChunksTextOverlapsCountedIsBoundedToo() {
        ChunkBudget budget = new ChunkBudget(2);

        budget.take("x".repeat(ChunkBudget.CHARACTERS_PER_CHUNK));
        assertThatThrownBy(() -> budget.take("x".repeat(ChunkBudget.CHARACTERS_PER_CHUNK + 1)))
                .isInstanceOf(TooManyChunksException.class)
                .hasMessage("The document's chunks would hold more than " + 2 * ChunkBudget.CHARACTERS_PER_CHUNK
                        + " characters, overlaps counted, the most one document may have; split it with a smaller "
                        + "chunk_overlap.");
    }

    @Test
    void aDocumentOfExactlyTheBudgetIsSplitAndOneMoreChunkIsRefused() {
        SplittingRules lines = SplittingRules.custom("\\n", 500, 0, false, false);

        List<String> three = new TextSplitter(lines).split("a\nb\n\nc", new ChunkBudget(3));

        assertThat(three).containsExactly("a", "b", "c");
        assertThatThrownBy(() -> new TextSplitter(lines).split("a\nb\nc\nd", new ChunkBudget(3)))
                .isInstanceOf(TooManyChunksException.class);
    }

    @Test
    void aParentChildSplitCountsParentsAndChildrenAgainstOneBudget() {
        ParentChildRules rules = new ParentChildRules(ParentChildRules.ParentMode.PARAGRAPH,
                SplittingRules.custom("\\n\\n", 500, 0, false, false), SplittingRules.custom("\\n", 50, 0, false,
                false));

        assertThat(rules.split("a\nb\n\nc", new ChunkBudget(5))).hasSize(2);
        assertThatThrownBy(() -> rules.split("a\nb\n\nc", new ChunkBudget(4)))
                .isInstanceOf(TooManyChunksException.class);
    }
}
