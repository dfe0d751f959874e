package dev.hexaflow.workflow.nodes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The reasoning filter piece by piece (tags split between pieces, held back only while they may still become one)
 * and whole (Dify's split_reasoning), and the structured output's schema check, path by path.
 */
class ThinkStreamFilterTest {

    private static List<ThinkStreamFilter.Piece> stream(String... pieces) {
        ThinkStreamFilter filter = new ThinkStreamFilter();
        List<ThinkStreamFilter.Piece> out = new ArrayList<>();
        for (String piece : pieces) {
            out.addAll(filter.feed(piece));
        }
        out.addAll(filter.finish());
        return out;
    }

    private static String joined(List<ThinkStreamFilter.Piece> pieces, boolean reasoning) {
        return String.join("", pieces.stream().filter(p -> p.reasoning() == reasoning)
                .map(ThinkStreamFilter.Piece::text).toList());
    }

    @Test
    void tagsSplitBetweenPiecesAreStillTags() {
        List<ThinkStreamFilter.Piece> pieces = stream("<thi", "nk>wei", "gh</th", "INK>\n\nYes <b>", "old</b> <", "3");

        assertThat(joined(pieces, true)).isEqualTo("weigh");
        assertThat(joined(pieces, false)).isEqualTo("Yes <b>old</b> <3");
    }

    @Test
    void aThinkLeftOpenIsReasoningToTheEndAndTextBeforeItStaysText() {
        List<ThinkStreamFilter.Piece> pieces = stream("Sure. ", "<think>and then", " </thi");

        assertThat(joined(pieces, false)).isEqualTo("Sure. ");
        assertThat(joined(pieces, true)).isEqualTo("and then </thi");
    }

    @Test
    void theWholeAnswerSplitsAsDifysSplitReasoning() {
        assertThat(ThinkStreamFilter.split("<think> a </think>\n\n\nX\n \n<THINK>b</think>Y<think>c"))
                .containsExactly("X\n\nY", "a\nb\nc");
        assertThat(ThinkStreamFilter.split("no reasoning")).containsExactly("no reasoning", "");
    }

    @Test
    void theSchemaCheckNamesThePathAndTheProblemAsPythonJsonschemaDoes() {
        Map<String, Object> schema = Map.of("type", "object", "properties", Map.of(
                "n", Map.of("type", List.of("integer", "null")),
                "k", Map.of("const", "fixed"),
                "rows", Map.of("type", "array", "items", Map.of("type", "object", "required", List.of("id")))));

        assertThat(JsonSchemaCheck.check(schema, Map.of("n", 2.0))).isEmpty();
        assertThat(JsonSchemaCheck.check(schema, Map.of("n", 2.5))).get().isEqualTo(new JsonSchemaCheck.Problem(
                "$.n", "2.5 is not of type 'integer', 'null'"));
        assertThat(JsonSchemaCheck.check(schema, Map.of("k", "other"))).get()
                .isEqualTo(new JsonSchemaCheck.Problem("$.k", "'fixed' was expected"));
        assertThat(JsonSchemaCheck.check(schema, Map.of("rows", List.of(Map.of("id", 1), Map.of())))).get()
                .isEqualTo(new JsonSchemaCheck.Problem("$.rows[1]", "'id' is a required property"));
        assertThat(JsonSchemaCheck.check(schema, List.of())).get()
                .isEqualTo(new JsonSchemaCheck.Problem("$", "[] is not of type 'object'"));
    }
}
