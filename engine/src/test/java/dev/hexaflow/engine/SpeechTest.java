package dev.hexaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hexaflow.adapters.dsl.YamlWorkflowDslReader;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.engine.EngineConfiguration;
import dev.hexaflow.engine.Engines;
import dev.hexaflow.workflow.engine.RunRequest;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** text_to_speech: the streamed text spoken through the speech endpoint, after the run's own events. */
class SpeechTest {

    static final FakeModelServer MODEL = new FakeModelServer();
    static final WorkflowEngine ENGINE = Engines.standard(EngineConfiguration.fromEnvironment(Map.of())
            .withLlm(MODEL.baseUrl(), null));

    @AfterAll
    static void stop() {
        MODEL.close();
    }

    private static List<RunEvent> run(String autoPlay) {
        Workflow workflow = new YamlWorkflowDslReader().read(("""
                app: {name: talk, mode: workflow}
                workflow:
                  features:
                    text_to_speech: {enabled: true, autoPlay: %s, voice: nova, language: en-US}
                  graph:
                    nodes:
                      - {id: s, data: {type: start, title: S, variables: [{variable: q, type: paragraph}]}}
                      - {id: e, data: {type: end, title: E, outputs: [{variable: a, value_selector: [s, q]}]}}
                    edges:
                      - {source: s, target: e}
                """.formatted(autoPlay)).getBytes(StandardCharsets.UTF_8));
        List<RunEvent> events = new CopyOnWriteArrayList<>();
        ENGINE.run(ENGINE.prepare(workflow), RunRequest.of(workflow, "u", Map.of("q", "Hello there. How are you?")),
                events::add);
        return events;
    }

    @Test
    void withAutoplayTheTextIsSpokenAfterTheRunAndTheSpeechEnds() {
        List<RunEvent> events = run("enabled");

        int finished = indexOf(events, RunEvent.WorkflowFinished.class);
        int spoken = indexOf(events, RunEvent.TtsMessage.class);
        assertThat(spoken).isGreaterThan(finished);
        assertThat(events.get(events.size() - 1)).isInstanceOf(RunEvent.TtsMessageEnd.class);
        RunEvent.TtsMessage message = (RunEvent.TtsMessage) events.get(spoken);
        assertThat(new String(Base64.getDecoder().decode(message.audio()), StandardCharsets.UTF_8))
                .isEqualTo("MP3:nova:Hello there. How are you?");
    }

    @Test
    void withoutAutoplayNothingIsSpoken() {
        List<RunEvent> events = run("disabled");

        assertThat(events).noneMatch(e -> e instanceof RunEvent.TtsMessage || e instanceof RunEvent.TtsMessageEnd);
        assertThat(events.get(events.size() - 1)).isInstanceOf(RunEvent.WorkflowFinished.class);
    }

    private static int indexOf(List<RunEvent> events, Class<?> kind) {
        for (int i = 0; i < events.size(); i++) {
            if (kind.isInstance(events.get(i))) {
                return i;
            }
        }
        return -1;
    }
}
