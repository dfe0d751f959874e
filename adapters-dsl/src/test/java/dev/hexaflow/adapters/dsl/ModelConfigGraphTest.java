package dev.hexaflow.adapters.dsl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.InvalidWorkflowException;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.Workflow;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A chat, agent-chat or completion app's model_config read into the graph Dify's runtime implies. */
class ModelConfigGraphTest {

    private final YamlWorkflowDslReader reader = new YamlWorkflowDslReader();

    private Workflow read(String mode, String config) {
        return reader.read(("""
                app: {name: Easy, mode: %s, icon: x, icon_background: '#fff', description: d}
                kind: app
                version: 0.6.0
                model_config:
                  model: {provider: langgenius/openai/openai, name: gpt-4o-mini, mode: chat, completion_params: {}}
                %s
                """.formatted(mode, config.indent(2))).getBytes(StandardCharsets.UTF_8));
    }

    private static List<String> chain(Workflow workflow) {
        return workflow.graph().edges().stream().map(edge -> edge.source() + ">" + edge.target()).toList();
    }

    @Test
    void aChatAppIsStartThenModelWithMemoryThenAnswerAndItsFormAndFeaturesAreKept() {
        Workflow workflow = read("chat", """
                pre_prompt: 'You help {{name}} in {{ lang }} with {{#query#}}.{{#histories#}}'
                opening_statement: Hi
                suggested_questions: ['One?']
                user_input_form:
                  - text-input: {variable: name, label: Name, required: true, max_length: 20}
                  - select: {variable: lang, label: Language, options: [en, fr], required: false}
                """);

        assertThat(workflow.isChat()).isTrue();
        assertThat(chain(workflow)).containsExactly("start>llm", "llm>answer");
        Node llm = workflow.graph().node("llm").orElseThrow();
        assertThat(llm.data().trees("prompt_template").get(0).asMap()).containsEntry("role", "system")
                .containsEntry("text", "You help {{#start.name#}} in {{ lang }} with {{#sys.query#}}.");
        assertThat(llm.data().tree("memory").string("query_prompt_template")).isEqualTo("{{#sys.query#}}");
        assertThat(workflow.inputFields()).extracting(field -> field.variable()).containsExactly("name", "lang");
        assertThat(workflow.inputForm().get(0).string("type")).isEqualTo("text-input");
        assertThat(workflow.features().string("opening_statement")).isEqualTo("Hi");
        assertThat(workflow.features().list("suggested_questions")).containsExactly("One?");
        assertThat(workflow.dslVersion()).isEqualTo("0.6.0");
    }

    @Test
    void knowledgeBasesComeBeforeTheModelAndFillItsContext() {
        Workflow workflow = read("chat", """
                pre_prompt: Be brief.
                dataset_configs:
                  retrieval_model: multiple
                  top_k: 3
                  score_threshold: 0.5
                  score_threshold_enabled: true
                  datasets:
                    datasets:
                      - dataset: {enabled: true, id: base-1}
                      - dataset: {enabled: false, id: base-2}
                """);

        assertThat(chain(workflow)).containsExactly("start>knowledge", "knowledge>llm", "llm>answer");
        DataTree knowledge = workflow.graph().node("knowledge").orElseThrow().data();
        assertThat(knowledge.list("dataset_ids")).containsExactly("base-1");
        assertThat(knowledge.list("query_variable_selector")).containsExactly("sys", "query");
        assertThat(knowledge.tree("multiple_retrieval_config").longValue("top_k", 0)).isEqualTo(3);
        DataTree llm = workflow.graph().node("llm").orElseThrow().data();
        assertThat(llm.tree("context").list("variable_selector")).containsExactly("knowledge", "result");
        assertThat(llm.trees("prompt_template").get(0).string("text")).contains("{{#context#}}")
                .endsWith("Be brief.");
    }

    @Test
    void anAgentChatAppIsAnAgentNodeWithItsEnabledToolsAndStrategy() {
        Workflow workflow = read("agent-chat", """
                pre_prompt: Dates for {{name}}.
                agent_mode:
                  enabled: true
                  strategy: react
                  max_iteration: 4
                  tools:
                    - {enabled: true, provider_id: time, provider_name: time, provider_type: builtin,
                       tool_name: weekday, tool_parameters: {year: '', month: 2}}
                    - {enabled: false, provider_id: time, provider_type: builtin, tool_name: current_time}
                """);

        assertThat(chain(workflow)).containsExactly("start>agent", "agent>answer");
        DataTree agent = workflow.graph().node("agent").orElseThrow().data();
        assertThat(agent.string("agent_strategy_name")).isEqualTo("ReAct");
        DataTree parameters = agent.tree("agent_parameters");
        assertThat(parameters.tree("instruction").string("value")).isEqualTo("Dates for {{#start.name#}}.");
        assertThat(parameters.tree("maximum_iterations").longValue("value", 0)).isEqualTo(4);
        List<DataTree> tools = parameters.tree("tools").trees("value");
        assertThat(tools).hasSize(1);
        assertThat(tools.get(0).string("tool_name")).isEqualTo("weekday");
        assertThat(tools.get(0).tree("parameters").asMap()).containsOnlyKeys("month");
        assertThat(workflow.graph().node("answer").orElseThrow().type()).isEqualTo(NodeType.ANSWER);
    }

    @Test
    void anAgentChatAppsBasesAreOfferedToItsAgentNotSearchedBeforeIt() {
        Workflow workflow = read("agent-chat", """
                pre_prompt: Answer from the handbook.
                agent_mode: {enabled: true, strategy: function_call, tools: []}
                dataset_configs:
                  retrieval_model: multiple
                  top_k: 3
                  score_threshold: 0.5
                  score_threshold_enabled: true
                  datasets:
                    datasets:
                      - dataset: {enabled: true, id: base-1}
                      - dataset: {enabled: false, id: base-2}
                      - dataset: {enabled: true, id: base-3}
                """);

        assertThat(chain(workflow)).containsExactly("start>agent", "agent>answer");
        DataTree agent = workflow.graph().node("agent").orElseThrow().data();
        assertThat(agent.list("dataset_ids")).containsExactly("base-1", "base-3");
        DataTree retrieval = agent.tree("dataset_retrieval");
        assertThat(retrieval.string("retrieval_model")).isEqualTo("multiple");
        assertThat(retrieval.longValue("top_k", 0)).isEqualTo(3);
        assertThat(retrieval.get("score_threshold")).isEqualTo(0.5);
        DataTree single = read("agent-chat", """
                dataset_configs:
                  retrieval_model: single
                  datasets: {datasets: [{dataset: {enabled: true, id: base-1}}]}
                """).graph().node("agent").orElseThrow().data();
        assertThat(single.tree("dataset_retrieval").string("retrieval_model")).isEqualTo("single");
        assertThat(single.tree("dataset_retrieval").has("score_threshold")).isFalse();
    }

    @Test
    void aCompletionAppSendsOneUserMessageWithNoMemory() {
        Workflow workflow = read("completion", """
                pre_prompt: 'Translate {{text}}.'
                user_input_form:
                  - paragraph: {variable: text, label: Text, required: true}
                """);

        DataTree llm = workflow.graph().node("llm").orElseThrow().data();
        assertThat(llm.trees("prompt_template")).hasSize(1);
        assertThat(llm.trees("prompt_template").get(0).asMap()).containsEntry("role", "user")
                .containsEntry("text", "Translate {{#start.text#}}.{{#sys.query#}}");
        assertThat(llm.has("memory")).isFalse();
        assertThat(workflow.isChat()).isTrue();
    }

    @Test
    void anAdvancedPromptIsTheAuthorsOwnMessagesWithTheMemoryAfterThem() {
        Workflow workflow = read("chat", """
                prompt_type: advanced
                pre_prompt: ''
                chat_prompt_config:
                  prompt:
                    - {role: system, text: 'Speak as {{persona}}.'}
                    - {role: assistant, text: Ready.}
                """);

        DataTree llm = workflow.graph().node("llm").orElseThrow().data();
        assertThat(llm.trees("prompt_template")).extracting(p -> p.string("role") + ": " + p.string("text"))
                .containsExactly("system: Speak as {{#start.persona#}}.", "assistant: Ready.");
        assertThat(llm.has("memory")).isTrue();
    }

    @Test
    void anAppWithoutModelConfigOrModelIsRefusedNamingWhatIsMissing() {
        assertThatThrownBy(() -> reader.read("app: {name: E, mode: chat}\nkind: app\n".getBytes(
                StandardCharsets.UTF_8))).isInstanceOf(InvalidWorkflowException.class)
                .hasMessageContaining("model_config is missing");
        assertThatThrownBy(() -> reader.read("app: {name: E, mode: completion}\nmodel_config: {pre_prompt: x}\n"
                .getBytes(StandardCharsets.UTF_8))).isInstanceOf(InvalidWorkflowException.class)
                .hasMessageContaining("model_config.model.name is missing");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0.6.0", "0.7.0"})
    void workflowFilesOfDifysNewestDslVersionsRead(String version) {
        Workflow workflow = reader.read(("""
                app: {name: W, mode: workflow}
                kind: app
                version: %s
                workflow:
                  graph:
                    nodes:
                      - {id: s, data: {type: start, title: S, variables: []}}
                      - {id: e, data: {type: end, title: E, outputs: []}}
                    edges: [{source: s, target: e}]
                """.formatted(version)).getBytes(StandardCharsets.UTF_8));

        assertThat(workflow.dslVersion()).isEqualTo(version);
        assertThat(workflow.graph().nodes()).hasSize(2);
    }

    @Test
    void anUnknownModeIsStillRefusedNamingTheModesHexaflowRuns() {
        assertThatThrownBy(() -> reader.read("app: {name: E, mode: rag-pipeline}\nworkflow: {graph: {nodes: []}}\n"
                .getBytes(StandardCharsets.UTF_8))).isInstanceOf(InvalidWorkflowException.class)
                .hasMessageContaining("workflow, advanced-chat, chat, agent-chat and completion");
    }
}
