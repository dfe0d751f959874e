package dev.hexaflow.workflow;

import static dev.hexaflow.workflow.TestWorkflows.workflow;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.workflow.engine.RunRequest;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import dev.hexaflow.workflow.nodes.StandardNodes;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowRun;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** list-operator and assigner operations, run through the engine. */
class PureNodesTest {

    private final WorkflowEngine engine = new WorkflowEngine(StandardNodes.catalogue(
            StandardNodes.Services.none()));

    /** A loop with no rounds gives a constant list to work on: [items, list]. */
    private static TestWorkflows listOf(String json) {
        return workflow().start("s")
                .node("items", NodeType.LOOP, Map.of("loop_count", 0, "start_node_id", "is", "loop_variables",
                        List.of(Map.of("label", "list", "var_type", "array[any]", "value_type", "constant",
                                "value", json))))
                .child("items", "is", NodeType.LOOP_START, Map.of())
                .edge("start", "items");
    }

    private WorkflowRun listOperator(String json, Map<String, Object> data) {
        Map<String, Object> full = new LinkedHashMap<>(data);
        full.put("variable", List.of("items", "list"));
        Workflow built = listOf(json).node("ops", NodeType.LIST_OPERATOR, full)
                .end("end", Map.of("result", List.of("ops", "result"), "first", List.of("ops", "first_record"),
                        "last", List.of("ops", "last_record")))
                .edge("items", "ops").edge("ops", "end").build();
        return engine.run(engine.prepare(built), RunRequest.of(built, "u", Map.of("s", "ell")), e -> { });
    }

    private static Map<String, Object> filter(String operator, String value) {
        return Map.of("enabled", true, "conditions", List.of(Map.of("key", "", "comparison_operator", operator,
                "value", value)));
    }

    @Test
    void stringListsFilterWithReferencesThenExtractOrderAndLimit() {
        WorkflowRun contains = listOperator("[\"hello\", \"bell\", \"cat\", \"yellow\"]",
                Map.of("filter_by", filter("contains", "{{#start.s#}}"), "order_by",
                        Map.of("enabled", true, "key", "", "value", "desc"), "limit", Map.of("enabled", true, "size", 2)));
        WorkflowRun serial = listOperator("[\"a\", \"b\", \"c\"]",
                Map.of("extract_by", Map.of("enabled", true, "serial", "2")));

        assertThat(contains.outputs()).isEqualTo(Map.of("result", List.of("yellow", "hello"), "first", "yellow",
                "last", "hello"));
        assertThat(serial.outputs().get("result")).isEqualTo(List.of("b"));
    }

    @Test
    void numberListsTakeTheSixComparisons() {
        WorkflowRun big = listOperator("[5, 1, 10, 3.5]", Map.of("filter_by", filter("≥", "3.5")));

        assertThat(big.outputs().get("result")).isEqualTo(List.of(5L, 10L, 3.5));
    }

    @Test
    void anEmptyListGivesNullRecordsAndABadSerialFails() {
        WorkflowRun empty = listOperator("[]", Map.of("filter_by", filter("contains", "x")));
        WorkflowRun bad = listOperator("[\"a\"]", Map.of("extract_by", Map.of("enabled", true, "serial", "3")));

        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("result", new ArrayList<>());
        expected.put("first", null);
        expected.put("last", null);
        assertThat(empty.outputs()).isEqualTo(expected);
        assertThat(bad.status()).isEqualTo(RunStatus.FAILED);
        assertThat(bad.error()).isEqualTo("Invalid serial index: must be <= 1, got 3");
    }

    private WorkflowRun assign(String json, String operation, Object value) {
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("variable_selector", List.of("items", "list"));
        item.put("input_type", "constant");
        item.put("operation", operation);
        item.put("value", value);
        Workflow built = listOf(json)
                .node("set", NodeType.ASSIGNER, Map.of("version", "2", "items", List.of(item)))
                .end("end", Map.of("v", List.of("items", "list")))
                .edge("items", "set").edge("set", "end").build();
        return engine.run(engine.prepare(built), RunRequest.of(built, "u", Map.of()), e -> { });
    }

    @Test
    void assignerOperationsChangeTheVariableAsDifysVersion2Does() {
        assertThat(assign("[1, 2]", "append", 3).outputs().get("v")).isEqualTo(List.of(1L, 2L, 3L));
        assertThat(assign("[1, 2]", "extend", List.of(3, 4)).outputs().get("v")).isEqualTo(List.of(1L, 2L, 3L, 4L));
        assertThat(assign("[1, 2, 3]", "remove-first", null).outputs().get("v")).isEqualTo(List.of(2L, 3L));
        assertThat(assign("[1, 2, 3]", "remove-last", null).outputs().get("v")).isEqualTo(List.of(1L, 2L));
        assertThat(assign("[1, 2, 3]", "clear", null).outputs().get("v")).isEqualTo(List.of());
        assertThat(assign("[1]", "over-write", List.of("x")).outputs().get("v")).isEqualTo(List.of("x"));
        WorkflowRun wrong = assign("[1]", "+=", 1);
        assertThat(wrong.status()).isEqualTo(RunStatus.FAILED);
        assertThat(wrong.error()).contains("needs numbers");
    }
}
