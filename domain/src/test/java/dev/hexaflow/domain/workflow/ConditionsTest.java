package dev.hexaflow.domain.workflow;

import static dev.hexaflow.domain.workflow.ComparisonOperator.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConditionsTest {

    private static boolean compare(Object actual, ComparisonOperator operator, Object expected) {
        return Conditions.compare(Values.normalize(actual), operator, Values.normalize(expected));
    }

    @Test
    void everyOneOfTheTwentyOneOperatorsHasItsDslName() {
        assertThat(ComparisonOperator.values()).hasSize(21);
        assertThat(ComparisonOperator.fromWireName("≠")).contains(NOT_EQUAL);
        assertThat(ComparisonOperator.fromWireName("≥")).contains(GREATER_OR_EQUAL);
        assertThat(ComparisonOperator.fromWireName("≤")).contains(LESS_OR_EQUAL);
        assertThat(ComparisonOperator.fromWireName("!=")).isEmpty();
    }

    @Test
    void textOperatorsWorkOnStringsAndContainsOnArraysToo() {
        assertThat(compare("hello world", CONTAINS, "hello")).isTrue();
        assertThat(compare("Hello", CONTAINS, "hello")).isFalse();
        assertThat(compare(List.of("a", "b"), CONTAINS, "b")).isTrue();
        assertThat(compare("", CONTAINS, "")).isFalse();
        assertThat(compare("abc", NOT_CONTAINS, "x")).isTrue();
        assertThat(compare("", NOT_CONTAINS, "x")).isTrue();
        assertThat(compare("abc", START_WITH, "ab")).isTrue();
        assertThat(compare("abc", END_WITH, "bc")).isTrue();
        assertThat(compare("", START_WITH, "")).isFalse();
        assertThat(compare("abc", IS, "abc")).isTrue();
        assertThat(compare("abc", IS_NOT, "abc")).isFalse();
        assertThat(compare(null, IS, "abc")).isFalse();
        assertThat(compare(null, IS_NOT, "abc")).isFalse();
    }

    @Test
    void emptinessIsPythonsTruthiness() {
        for (Object empty : new Object[] {null, "", 0, 0.0, false, List.of(), Map.of()}) {
            assertThat(compare(empty, EMPTY, null)).as(String.valueOf(empty)).isTrue();
            assertThat(compare(empty, NOT_EMPTY, null)).as(String.valueOf(empty)).isFalse();
        }
        assertThat(compare("x", NOT_EMPTY, null)).isTrue();
    }

    @Test
    void numericOperatorsConvertTheExpectedValueToTheActualKind() {
        assertThat(compare(1, EQUAL, "1")).isTrue();
        assertThat(compare(1, NOT_EQUAL, "2")).isTrue();
        assertThat(compare(5, GREATER_OR_EQUAL, "5")).isTrue();
        assertThat(compare(4, GREATER_OR_EQUAL, "5")).isFalse();
        assertThat(compare(4.5, GREATER_THAN, "4.4")).isTrue();
        assertThat(compare(3, LESS_THAN, 4)).isTrue();
        assertThat(compare(3, LESS_OR_EQUAL, "3")).isTrue();
        assertThat(compare(true, EQUAL, true)).isTrue();
        assertThat(compare(null, EQUAL, "1")).isFalse();
        assertThatThrownBy(() -> compare(1, EQUAL, "1.5")).isInstanceOf(ConditionException.class)
                .hasMessageContaining("invalid literal for int()");
        assertThatThrownBy(() -> compare("5", GREATER_THAN, "1")).isInstanceOf(ConditionException.class)
                .hasMessage("Invalid actual value type: number");
    }

    @Test
    void nullExistsInAndAllOf() {
        assertThat(compare(null, NULL, null)).isTrue();
        assertThat(compare("x", NOT_NULL, null)).isTrue();
        assertThat(compare(null, NOT_EXISTS, null)).isTrue();
        assertThat(compare(0, EXISTS, null)).isTrue();
        assertThat(compare("a", IN, List.of("a", "b"))).isTrue();
        assertThat(compare("c", NOT_IN, List.of("a", "b"))).isTrue();
        assertThat(compare(List.of("a", "b", "c"), ALL_OF, List.of("a", "c"))).isTrue();
        assertThat(compare(List.of("a"), ALL_OF, List.of("a", "c"))).isFalse();
        assertThatThrownBy(() -> compare("a", IN, "a")).hasMessage("Invalid expected value type: array");
    }

    @Test
    void groupsShortCircuitAndExpectedTextIsRenderedFirst() {
        VariablePool pool = VariablePool.of(Map.of(), Map.of());
        pool.set("start", "query", "hello world");
        pool.set("start", "word", "world");
        List<Condition> conditions = List.of(
                Condition.of(VariableSelector.of("start", "query"), CONTAINS, "{{#start.word#}}"),
                Condition.of(VariableSelector.of("start", "missing"), CONTAINS, "x"));

        Conditions.Outcome or = Conditions.evaluate(conditions, Condition.LogicalOperator.OR, pool);

        assertThat(or.result()).isTrue();
        assertThat(or.results()).containsExactly(true);
        assertThatThrownBy(() -> Conditions.evaluate(conditions, Condition.LogicalOperator.AND, pool))
                .isInstanceOf(ConditionException.class).hasMessage("Variable [start, missing] not found");
    }

    @Test
    void fileArraysAreTestedOnTheirAttributesWithNegativeOperatorsNeedingEveryFile() {
        VariablePool pool = VariablePool.of(Map.of(), Map.of());
        pool.set("start", "files", List.of(file("a.pdf", "document", ".pdf"), file("b.png", "image", "png")));
        Condition anyImage = new Condition(VariableSelector.of("start", "files"), CONTAINS, null,
                Condition.LogicalOperator.AND, List.of(new Condition.SubCondition("type", IS, "image")));
        Condition noneIsPng = new Condition(VariableSelector.of("start", "files"), CONTAINS, null,
                Condition.LogicalOperator.AND, List.of(new Condition.SubCondition("extension", IS_NOT, "png")));

        assertThat(Conditions.evaluate(List.of(anyImage), Condition.LogicalOperator.AND, pool).result()).isTrue();
        assertThat(Conditions.evaluate(List.of(noneIsPng), Condition.LogicalOperator.AND, pool).result()).isFalse();
    }

    @Test
    void booleanVariablesCompareWithTextTrueAndFalse() {
        VariablePool pool = VariablePool.of(Map.of(), Map.of());
        pool.set("start", "flag", true);
        Condition isTrue = Condition.of(VariableSelector.of("start", "flag"), IS, "true");

        assertThat(Conditions.evaluate(List.of(isTrue), Condition.LogicalOperator.AND, pool).result()).isTrue();
    }

    private static FileValue file(String name, String type, String extension) {
        return new FileValue("f-" + name, type, "local_file", null, "u-" + name, name, extension, "x/y", 10, null);
    }
}
