package dev.hexaflow.domain.mcpserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.InputField;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An app's tool schema as Dify's {@code build_parameter_schema} makes it (files left out, a select's options as
 * {@code enum}, a chat's {@code query} first), and the limits of a server's descriptions and code.
 */
class McpToolSchemaTest {

    @Test
    void eachKindOfFieldHasItsTypeAndFilesAreLeftOut() {
        List<InputField> form = List.of(field("name", "text-input", true), field("bio", "paragraph", false),
                field("size", "select", true), field("age", "number", false), field("ok", "checkbox", false),
                field("meta", "json_object", false), field("cv", "file", true), field("cvs", "file-list", false));

        Map<String, Object> schema = McpToolSchema.of(false, form, Map.of("age", "In years"));

        assertThat(schema.get("type")).isEqualTo("object");
        assertThat(schema.get("required")).isEqualTo(List.of("name", "size"));
        Map<?, ?> properties = (Map<?, ?>) schema.get("properties");
        assertThat(List.copyOf(properties.keySet())).isEqualTo(List.of("name", "bio", "size", "age", "ok",
                "meta"));
        assertThat(properties.get("size")).isEqualTo(Map.of("description", "", "type", "string", "enum",
                List.of("S", "M")));
        assertThat(properties.get("age")).isEqualTo(Map.of("description", "In years", "type", "number"));
        assertThat(properties.get("ok")).isEqualTo(Map.of("description", "", "type", "boolean"));
        assertThat(properties.get("meta")).isEqualTo(Map.of("description", "", "type", "object"));
    }

    @Test
    void aChatTakesItsQueryFirstAndRequired() {
        Map<String, Object> schema = McpToolSchema.of(true, List.of(field("name", "text-input", true)), Map.of());

        Map<?, ?> properties = (Map<?, ?>) schema.get("properties");
        assertThat(List.copyOf(properties.keySet())).isEqualTo(List.of("query", "name"));
        assertThat(schema.get("required")).isEqualTo(List.of("query", "name"));
    }

    @Test
    void aServersCodeAndDescriptionsAreHeldToTheirLimits() {
        String code = "a1".repeat(16);
        assertThat(AppMcpServer.isCode(code)).isTrue();
        assertThat(AppMcpServer.isCode("A1".repeat(16))).isFalse();
        assertThat(AppMcpServer.isCode(code + "b")).isFalse();
        assertThat(AppMcpServer.isCode("../" + code.substring(3))).isFalse();
        assertThatThrownBy(() -> new AppMcpServer("s", "a", "short", "", true, Map.of(), 1, 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new AppMcpServer("s", "a", code, "x".repeat(AppMcpServer.MAX_DESCRIPTION + 1), true,
                Map.of(), 1, 1)).hasMessageContaining("description");
        Map<String, String> many = new LinkedHashMap<>();
        for (int i = 0; i <= AppMcpServer.MAX_PARAMETERS; i++) {
            many.put("v" + i, "d");
        }
        assertThatThrownBy(() -> new AppMcpServer("s", "a", code, "", true, many, 1, 1))
                .hasMessageContaining("more than " + AppMcpServer.MAX_PARAMETERS);
        assertThatThrownBy(() -> new AppMcpServer("s", "a", code, "", true, Map.of("x".repeat(256), "d"), 1, 1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static InputField field(String variable, String type, boolean required) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("variable", variable);
        data.put("type", type);
        data.put("required", required);
        if (type.equals("select")) {
            data.put("options", List.of("S", "M"));
        }
        return InputField.of(DataTree.of(data));
    }
}
