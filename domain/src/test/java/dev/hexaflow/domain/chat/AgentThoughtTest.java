package dev.hexaflow.domain.chat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.domain.workflow.RunEvent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The thoughts read from an agent's log: one per round's end, its calls' inputs and answers by tool name. */
class AgentThoughtTest {

    private static RunEvent.AgentLogged entry(String id, String label, String parent, String status,
            Map<String, Object> output) {
        return new RunEvent.AgentLogged("exec-1", "agent", id, label, parent, status, null,
                Map.of("output", output), Map.of());
    }

    @Test
    void eachRoundsEndIsAThoughtWithTheInputsOfItsCallsAndTheirAnswers() {
        AgentThought.Collector collector = new AgentThought.Collector("m1", List.of());

        assertThat(collector.add(entry("r1", "ROUND 1", null, "start", Map.of()), 10)).isEmpty();
        assertThat(collector.add(entry("c1", "CALL weekday", "r1", "success", Map.of("tool_call_name", "weekday",
                "tool_call_input", Map.of("year", 2024L))), 11)).isEmpty();
        AgentThought first = collector.add(entry("r1", "ROUND 1", null, "success", Map.of("llm_response", "",
                "tool_responses", List.of(Map.of("tool_call_name", "weekday", "tool_response", "Thursday")))), 12)
                .orElseThrow();
        AgentThought last = collector.add(entry("r2", "ROUND 2", null, "success",
                Map.of("llm_response", "A Thursday.")), 13).orElseThrow();

        assertThat(first.position()).isEqualTo(1);
        assertThat(first.tool()).isEqualTo("weekday");
        assertThat(first.toolInput()).isEqualTo(Map.of("weekday", Map.of("year", 2024L)));
        assertThat(first.observation()).isEqualTo(Map.of("weekday", "Thursday"));
        assertThat(first.createdAt()).isEqualTo(12);
        assertThat(last.thought()).isEqualTo("A Thursday.");
        assertThat(last.tool()).isEmpty();
        assertThat(collector.thoughts()).containsExactly(first, last);
        assertThat(new AgentThought.Collector("m1", List.of()).add(entry("r1", "ROUND 1", null, "success",
                Map.of()), 12).orElseThrow().id()).as("the same id for the same message and entry")
                .isEqualTo(first.id()).isNotEqualTo(new AgentThought.Collector("m2", List.of())
                        .add(entry("r1", "ROUND 1", null, "success", Map.of()), 12).orElseThrow().id());
    }

    @Test
    void thoughtsKeptBeforeComeFirstAndTheListIsInPositionOrder() {
        AgentThought kept = new AgentThought("t1", 1, "Earlier.", "", Map.of(), Map.of(), 5);
        AgentThought.Collector collector = new AgentThought.Collector("m1", List.of(kept));

        AgentThought next = collector.add(entry("r3", "ROUND 3", null, "success", Map.of("llm_response", "Then.")),
                9).orElseThrow();
        collector.add(entry("r2", "ROUND 2", null, "success", Map.of("llm_response", "Between.")), 8);

        assertThat(collector.thoughts()).extracting(AgentThought::position).containsExactly(1, 2, 3);
        assertThat(collector.thoughts().get(2)).isEqualTo(next);
        assertThat(collector.add(entry("x", "something else", null, "success", Map.of()), 9)).isEmpty();
    }
}
