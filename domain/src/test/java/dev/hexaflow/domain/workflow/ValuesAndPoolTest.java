package dev.hexaflow.domain.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ValuesAndPoolTest {

    @Test
    void textFormsAreDifysSegmentTexts() {
        assertThat(Values.text(null)).isEmpty();
        assertThat(Values.text("a")).isEqualTo("a");
        assertThat(Values.text(5L)).isEqualTo("5");
        assertThat(Values.text(5.0)).isEqualTo("5.0");
        assertThat(Values.text(0.1)).isEqualTo("0.1");
        assertThat(Values.text(1e16)).isEqualTo("1e+16");
        assertThat(Values.text(1.5e-5)).isEqualTo("1.5e-05");
        assertThat(Values.text(true)).isEqualTo("True");
        assertThat(Values.text(List.of())).isEmpty();
        assertThat(Values.text(List.of("a", "é"))).isEqualTo("[\"a\", \"é\"]");
        assertThat(Values.text(Values.normalize(List.of(1, 2)))).isEqualTo("[1, 2]");
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("k", "v");
        object.put("n", List.of(1L, "x'"));
        assertThat(Values.text(object)).isEqualTo("{\"k\": \"v\", \"n\": [1, \"x'\"]}");
        assertThat(Values.text(List.of(object))).isEqualTo("[{'k': 'v', 'n': [1, \"x'\"]}]");
    }

    @Test
    void markdownShowsObjectsIndentedAndArraysAsLines() {
        assertThat(Values.markdown(Map.of("a", 1L))).isEqualTo("{\n  \"a\": 1\n}");
        assertThat(Values.markdown(List.of("x", "y"))).isEqualTo("- x\n- y");
        assertThat(Values.markdown(new FileValue("1", "image", "remote_url", "http://h/p.png", null, "p.png", ".png",
                "image/png", 1, null))).isEqualTo("![p.png](http://h/p.png)");
    }

    @Test
    void numbersAreNormalizedToLongAndDouble() {
        assertThat(Values.normalize(Map.of("i", 1, "f", 1.5f))).isEqualTo(Map.of("i", 1L, "f", 1.5));
        assertThat(Values.typeName(List.of(1L, 2L))).isEqualTo("array[number]");
        assertThat(Values.typeName(List.of(1L, "x"))).isEqualTo("array[any]");
    }

    @Test
    void theVariablePoolWalksObjectsAndFilesAndForksKeepTheirOwnWrites() {
        VariablePool pool = VariablePool.of(Map.of("user_id", "u1"), Map.of("KEY", "secret"));
        pool.set("n1", "obj", Map.of("a", Map.of("b", 7)));
        pool.set("n1", "file", new FileValue("1", "document", "local_file", null, "r", "f.txt", ".txt",
                "text/plain", 42, null));
        VariablePool fork = pool.fork();
        fork.set("it", "item", "x");

        assertThat(pool.get(VariableSelector.of("n1", "obj", "a", "b"))).contains(7L);
        assertThat(pool.get(VariableSelector.of("n1", "file", "size"))).contains(42L);
        assertThat(pool.get(VariableSelector.of("sys", "user_id"))).contains("u1");
        assertThat(pool.get(VariableSelector.of("env", "KEY"))).contains("secret");
        assertThat(fork.get(VariableSelector.of("n1", "obj", "a", "b"))).contains(7L);
        assertThat(fork.get(VariableSelector.of("it", "item"))).contains("x");
        assertThat(pool.get(VariableSelector.of("it", "item"))).isEmpty();
    }

    @Test
    void referencesRenderAsTextAndUnknownOnesLeaveTheirName() {
        VariablePool pool = VariablePool.of(Map.of(), Map.of());
        pool.set("start", "name", "Ada");
        pool.set("start", "n", 3L);
        pool.set("start", "none", null);

        assertThat(pool.render("Hi {{#start.name#}}, {{#start.n#}} times{{#start.none#}}; {{#nope.x#}}"))
                .isEqualTo("Hi Ada, 3 times; nope.x");
        assertThat(VariablePool.references("{{#a.b#}} and {{#c.d.e#}}")).containsExactly(
                VariableSelector.of("a", "b"), VariableSelector.of("c", "d", "e"));
    }

    @Test
    void jsonTextReadsWhatTheDslHolds() {
        assertThat(JsonText.parse("{\"a\": [1, 2.5, true, null, \"x\\n\"]}"))
                .isEqualTo(Map.of("a", java.util.Arrays.asList(1L, 2.5, true, null, "x\n")));
        assertThatThrownBy(() -> JsonText.parse("{\"a\": }")).hasMessageContaining("not valid JSON");
    }

    @Test
    void aFinishedRunOrNodeCannotChangeAgain() {
        WorkflowRun run = WorkflowRun.started("r", "w", Map.of(), 0);
        WorkflowRun done = run.finish(RunStatus.SUCCEEDED, Map.of(), null, 0.1, 0, 2, 0, 1);

        assertThatThrownBy(() -> done.finish(RunStatus.FAILED, null, "x", 0, 0, 0, 0, 2))
                .isInstanceOf(IllegalTransitionException.class);
        assertThat(RunStatus.SUCCEEDED.canBecome(RunStatus.RUNNING)).isFalse();
        assertThat(NodeStatus.RUNNING.canBecome(NodeStatus.EXCEPTION)).isTrue();
        assertThat(NodeStatus.STOPPED.canBecome(NodeStatus.SUCCEEDED)).isFalse();
    }

    @Test
    void graphRulesListEveryProblem() {
        Node start = Node.of("s", NodeType.START, Map.of("title", "Start"));
        Node second = Node.of("s2", NodeType.START, Map.of("title", "Again"));
        Node a = Node.of("a", NodeType.END, Map.of("title", "A"));
        Node b = Node.of("b", NodeType.END, Map.of("title", "B"));
        Graph graph = new Graph(List.of(start, second, a, b), List.of(new Edge(null, "s", "a", null),
                new Edge(null, "a", "b", null), new Edge(null, "b", "a", null), new Edge(null, "a", "ghost", null)));

        assertThat(GraphRules.check(graph)).extracting(WorkflowProblem::toString).containsExactly(
                "node s2 (Again): a workflow has exactly one start node; s is one already",
                "node a (A): edge a-source-ghost goes to node ghost, which does not exist",
                "node a (A): edge b-source-a closes a cycle; repeat work with a loop or iteration node instead");
    }
}
