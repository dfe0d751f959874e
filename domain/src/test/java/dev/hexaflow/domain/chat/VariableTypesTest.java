package dev.hexaflow.domain.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.domain.workflow.ConversationVariable;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VariableTypesTest {

    private final KeptVariable count = new KeptVariable("c1", new ConversationVariable("v1", "count", "number", 1L,
            ""), 0, 100, 100);

    @Test
    void eachTypeTakesTheValuesDifyTakes() {
        assertThat(VariableTypes.accepts("string", "x")).isTrue();
        assertThat(VariableTypes.accepts("number", 2L)).isTrue();
        assertThat(VariableTypes.accepts("number", 2.5)).isTrue();
        assertThat(VariableTypes.accepts("integer", 2.5)).isTrue();
        assertThat(VariableTypes.accepts("object", Map.of())).isTrue();
        assertThat(VariableTypes.accepts("boolean", false)).isTrue();
        assertThat(VariableTypes.accepts("array[string]", List.of("a", "b"))).isTrue();
        assertThat(VariableTypes.accepts("array[number]", List.of(1L, 2.5))).isTrue();
        assertThat(VariableTypes.accepts("array[object]", List.of())).isTrue();
        assertThat(VariableTypes.accepts("string", 1L)).isFalse();
        assertThat(VariableTypes.accepts("object", List.of())).isFalse();
        assertThat(VariableTypes.accepts("array[string]", List.of("a", 1L))).isFalse();
        assertThat(VariableTypes.accepts("boolean", 1L)).isFalse();
    }

    @Test
    void aBooleanPassesForANumberAsPythonsBoolIsAnInt() {
        assertThat(VariableTypes.accepts("number", true)).isTrue();
    }

    @Test
    void valuesAreNamedAsDifyInfersThem() {
        assertThat(VariableTypes.inferred("x")).isEqualTo("string");
        assertThat(VariableTypes.inferred(3L)).isEqualTo("integer");
        assertThat(VariableTypes.inferred(3.5)).isEqualTo("float");
        assertThat(VariableTypes.inferred(true)).isEqualTo("boolean");
        assertThat(VariableTypes.inferred(null)).isEqualTo("none");
        assertThat(VariableTypes.inferred(Map.of())).isEqualTo("object");
        assertThat(VariableTypes.inferred(List.of(1L, 2.5))).isEqualTo("array[number]");
        assertThat(VariableTypes.inferred(List.of("a", 1L))).isEqualTo("array[any]");
        assertThat(VariableTypes.inferred(List.of())).isEqualTo("array[any]");
        assertThat(VariableTypes.inferred(List.of(List.of("a")))).isEqualTo("array[any]");
    }

    @Test
    void aValueOfAnotherTypeIsRefusedWithDifysMessageAndTheVariableKeepsItsValue() {
        assertThatThrownBy(() -> count.withValue("three", 200))
                .isInstanceOf(VariableTypeMismatchException.class)
                .hasMessage("Type mismatch: variable 'count' expects number, but got string type");
        assertThat(count.variable().value()).isEqualTo(1L);
    }

    @Test
    void aValueOfItsTypeIsKeptWithTheTimeItChanged() {
        KeptVariable changed = count.withValue(3L, 200);

        assertThat(changed.variable().value()).isEqualTo(3L);
        assertThat(changed.updatedAt()).isEqualTo(200);
        assertThat(changed.createdAt()).isEqualTo(100);
    }
}
