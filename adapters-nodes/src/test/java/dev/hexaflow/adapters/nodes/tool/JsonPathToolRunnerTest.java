package dev.hexaflow.adapters.nodes.tool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.nodes.fakes.StopSwitch;
import dev.hexaflow.domain.tool.ToolMessage;
import dev.hexaflow.domain.tool.ToolProviderType;
import dev.hexaflow.domain.tool.ToolRef;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The expected texts are what Dify's json_process tools print (Python's json.dumps). */
class JsonPathToolRunnerTest {

    private final JsonPathToolRunner json = new JsonPathToolRunner();

    private String run(String tool, Object... pairs) {
        Map<String, Object> arguments = new HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            arguments.put((String) pairs[i], pairs[i + 1]);
        }
        List<ToolMessage> messages = json.run(new ToolRef(ToolProviderType.BUILTIN, "json_process", tool),
                arguments, new StopSwitch());
        return ((ToolMessage.Text) messages.get(0)).text();
    }

    @Test
    void parseAnswersOneMatchAsItselfAndSeveralAsAList() {
        String content = "{\"a\": {\"b\": [1, 2]}, \"items\": [{\"id\": \"x\"}, {\"id\": \"é\"}], \"ok\": true}";
        assertThat(run("parse", "content", content, "json_filter", "$.a")).isEqualTo("{\"b\": [1, 2]}");
        assertThat(run("parse", "content", content, "json_filter", "$.items[*].id"))
                .isEqualTo("[\"x\", \"\\u00e9\"]");
        assertThat(run("parse", "content", content, "json_filter", "$.items[*].id", "ensure_ascii", false))
                .isEqualTo("[\"x\", \"é\"]");
        assertThat(run("parse", "content", content, "json_filter", "$.ok")).isEqualTo("True");
        assertThat(run("parse", "content", content, "json_filter", "$.items[0].id")).isEqualTo("x");
    }

    @Test
    void parseWithoutContentOrFilterAnswersDifysText() {
        assertThat(run("parse", "content", "", "json_filter", "$.a")).isEqualTo("Invalid parameter content");
        assertThat(run("parse", "content", "{}")).isEqualTo("Invalid parameter json_filter");
        assertThat(run("parse", "content", "{not json", "json_filter", "$.a")).startsWith("Invalid JSON");
    }

    @Test
    void replaceChangesAPatternAKeyOrAValue() {
        String content = "{\"name\": \"hello world\", \"n\": 1}";
        assertThat(run("json_replace", "content", content, "query", "$.name", "replace_model", "pattern",
                "replace_pattern", "world", "replace_value", "dify"))
                .isEqualTo("{\"name\": \"hello dify\", \"n\": 1}");
        assertThat(run("json_replace", "content", content, "query", "$.name", "replace_model", "key",
                "replace_value", "title")).isEqualTo("{\"n\": 1, \"title\": \"hello world\"}");
        assertThat(run("json_replace", "content", content, "query", "$.n", "replace_model", "value",
                "replace_value", "2")).isEqualTo("{\"name\": \"hello world\", \"n\": \"2\"}");
    }

    @Test
    void insertAddsToAnObjectOrAListAndCreatesAMissingPathWhenAsked() {
        assertThat(run("json_insert", "content", "{\"a\": {\"x\": 1}}", "query", "$.a", "new_value",
                "{\"y\": 2}")).isEqualTo("{\"a\": {\"x\": 1, \"y\": 2}}");
        assertThat(run("json_insert", "content", "{\"l\": [1, 3]}", "query", "$.l", "new_value", "2",
                "index", 1)).isEqualTo("{\"l\": [1, 2, 3]}");
        assertThat(run("json_insert", "content", "{}", "query", "$.a.b", "new_value", "v", "create_path",
                "True")).isEqualTo("{\"a\": {\"b\": \"v\"}}");
        assertThat(run("json_insert", "content", "{\"a\": {}}", "query", "$.a", "new_value", "3"))
                .isEqualTo("Cannot insert non-dict value into dict");
    }

    @Test
    void deleteRemovesEveryMatch() {
        assertThat(run("json_delete", "content", "{\"a\": 1, \"b\": [1, 2, 3]}", "query", "b[*]"))
                .isEqualTo("{\"a\": 1, \"b\": []}");
        assertThat(run("json_delete", "content", "{\"a\": 1, \"b\": 2}", "query", "$.a")).isEqualTo("{\"b\": 2}");
    }

    @Test
    void theFixturesJsonParseAnswersTheParsedValueAsResult() {
        List<ToolMessage> messages = json.run(new ToolRef(ToolProviderType.BUILTIN, "builtin", "json_parse"),
                Map.of("json_string", "{\"key\": \"value\", \"number\": 42}"), new StopSwitch());
        assertThat(messages).contains(new ToolMessage.Variable("result", Map.of("key", "value", "number", 42)));
    }
}
