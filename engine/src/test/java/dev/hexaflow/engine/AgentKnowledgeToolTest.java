package dev.hexaflow.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer;
import dev.hexaflow.adapters.nodes.fakes.FakeModelServer.Script;
import dev.hexaflow.domain.knowledge.Chunk;
import dev.hexaflow.domain.knowledge.DocumentStatus;
import dev.hexaflow.domain.knowledge.KnowledgeBase;
import dev.hexaflow.domain.knowledge.KnowledgeDocument;
import dev.hexaflow.domain.knowledge.RetrievalSettings;
import dev.hexaflow.domain.knowledge.SearchMethod;
import dev.hexaflow.domain.workflow.NodeExecution;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.RunEvent;
import dev.hexaflow.domain.workflow.RunStatus;
import dev.hexaflow.domain.workflow.Workflow;
import dev.hexaflow.domain.workflow.WorkflowRun;
import dev.hexaflow.workflow.engine.RunRequest;
import dev.hexaflow.workflow.engine.WorkflowEngine;
import dev.hexaflow.workflow.port.out.KnowledgeRetriever;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An agent node whose dataset_ids name knowledge bases (as the import of a Dify agent-chat app writes them) offers
 * them as Dify's retrieval tools, and the chunks the model's query finds are what the tool answers. The bases are a
 * small in-memory retriever that matches words, enough to tell one chunk from another.
 */
class AgentKnowledgeToolTest {

    static final String BASE = "6f1c2d4e-9a8b-4c7d";
    static final String OTHER = "7a2b-handbook";
    static final FakeModelServer MODEL = new FakeModelServer();
    static final WordsRetriever BASES = new WordsRetriever();
    static final EngineConfiguration CONFIG = EngineConfiguration.fromEnvironment(
            Map.of("HEXAFLOW_LLM_MODELS", "*=local-model")).withLlm(MODEL.baseUrl(), "sk-t");
    static final WorkflowEngine ENGINE = Engines.standard(CONFIG, null, CONFIG::outbound, owned -> { },
            services -> services.withKnowledge(BASES));

    private final List<RunEvent> events = new CopyOnWriteArrayList<>();

    @AfterAll
    static void stop() {
        MODEL.close();
    }

    @BeforeEach
    void forget() {
        MODEL.requests().clear();
    }

    static Workflow agent(String bases, String retrieval) {
        return Dsl.workflow("""
                - {id: start, data: {type: start, title: Start, variables: [{variable: query, type: text-input}]}}
                - id: agent
                  data:
                    type: agent
                    title: Agent
                    agent_strategy_name: function_calling
                    agent_parameters:
                      model: {type: constant, value: {provider: openai, model: gpt-4o, mode: chat}}
                      tools: {type: constant, value: []}
                      instruction: {type: constant, value: You answer from the handbook.}
                      query: {type: mixed, value: '{{#start.query#}}'}
                      maximum_iterations: {type: constant, value: 3}
                    dataset_ids: %s
                    dataset_retrieval: %s
                - {id: end, data: {type: end, title: End, outputs: [{variable: answer, value_selector: [agent, text]}]}}
                """.formatted(bases, retrieval), """
                - {source: start, target: agent}
                - {source: agent, target: end}
                """);
    }

    private WorkflowRun run(Workflow workflow) {
        return ENGINE.run(ENGINE.prepare(workflow), RunRequest.of(workflow, "u",
                Map.of("query", "How many days of leave?")), events::add);
    }

    @Test
    void singleOffersOneToolPerBaseNamedAndDescribedAsDifyDoesAndTheModelReadsTheChunksItFinds() {
        MODEL.answerInTurn(Script.toolCall("dataset_6f1c2d4e_9a8b_4c7d", "{\"query\": \"paid leave days\"}"),
                Script.text("25 days.", 30, 4));

        WorkflowRun run = run(agent("[" + BASE + ", " + OTHER + "]", "{retrieval_model: single}"));

        assertThat(run.status()).as(run.error()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(run.outputs()).containsEntry("answer", "25 days.");
        JsonNode tools = MODEL.requests().get(0).get("tools");
        assertThat(tools).extracting(t -> t.at("/function/name").asText())
                .containsExactly("dataset_6f1c2d4e_9a8b_4c7d", "dataset_7a2b_handbook");
        assertThat(tools.get(0).at("/function/description").asText()).isEqualTo("The staff handbook.");
        assertThat(tools.get(1).at("/function/description").asText())
                .isEqualTo("useful for when you want to answer queries about the Parking rules");
        assertThat(tools.get(0).at("/function/parameters/required")).extracting(JsonNode::asText)
                .containsExactly("query");
        JsonNode told = MODEL.requests().get(1).get("messages").get(3);
        assertThat(told.get("role").asText()).isEqualTo("tool");
        assertThat(told.get("content").asText()).isEqualTo("Paid leave: every employee has 25 days of paid leave.");
        NodeExecution agent = events.stream().filter(e -> e instanceof RunEvent.NodeFinished)
                .map(e -> ((RunEvent.NodeFinished) e).execution()).filter(e -> e.nodeType() == NodeType.AGENT)
                .findFirst().orElseThrow();
        assertThat(agent.metadata().agentLog()).extracting(entry -> entry.get("label"))
                .contains("CALL dataset_6f1c2d4e_9a8b_4c7d");
    }

    @Test
    void multipleOffersOneToolOverEveryBaseWithItsTopKAndABaseTheServerLacksIsLeftOutWithAWarning() {
        MODEL.answerInTurn(Script.toolCall("dataset_multi_retriever", "{\"query\": \"leave parking\"}"),
                Script.text("Both.", 30, 4));
        Workflow workflow = agent("[" + BASE + ", " + OTHER + ", gone-base]", "{retrieval_model: multiple, top_k: 2}");

        WorkflowRun run = run(workflow);

        assertThat(ENGINE.prepare(workflow).warnings()).singleElement().asString()
                .startsWith("The knowledge base gone-base is not in Hexaflow, so Agent is not offered it");
        assertThat(run.status()).as(run.error()).isEqualTo(RunStatus.SUCCEEDED);
        JsonNode tools = MODEL.requests().get(0).get("tools");
        assertThat(tools).extracting(t -> t.at("/function/name").asText()).containsExactly("dataset_multi_retriever");
        assertThat(MODEL.requests().get(1).get("messages").get(3).get("content").asText().lines())
                .containsExactlyInAnyOrder("Paid leave: every employee has 25 days of paid leave.",
                        "Parking: bikes park in the basement.");
    }

    @Test
    void aTopKOutOfRangeIsRefusedWhenTheWorkflowIsPrepared() {
        Workflow workflow = agent("[" + BASE + "]", "{retrieval_model: multiple, top_k: 1000}");

        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> ENGINE.prepare(workflow)))
                .hasMessageContaining("top_k must be between 1 and 100, was 1000");
    }

    /** Two bases, one chunk each; a chunk is found when it shares a word with the query. */
    static final class WordsRetriever implements KnowledgeRetriever {

        private final Map<String, KnowledgeBase> bases = Map.of(
                BASE, base(BASE, "Handbook", "The staff handbook."),
                OTHER, base(OTHER, "Parking rules", ""));
        private final Map<String, String> texts = Map.of(
                BASE, "Paid leave: every employee has 25 days of paid leave.",
                OTHER, "Parking: bikes park in the basement.");

        private static KnowledgeBase base(String id, String name, String description) {
            return new KnowledgeBase(id, name, description, Optional.empty(),
                    RetrievalSettings.defaults(SearchMethod.KEYWORD_SEARCH), Instant.EPOCH);
        }

        @Override
        public List<Hit> search(Search search) {
            int most = search.settings().map(RetrievalSettings::topK).orElse(4);
            return search.baseIds().stream().filter(id -> shares(texts.get(id), search.query())).limit(most)
                    .map(id -> new Hit(bases.get(id), new KnowledgeDocument("doc-" + id, id, "doc.md", "text", 9,
                            "h", DocumentStatus.COMPLETED, Optional.empty(), true, Map.of(), Instant.EPOCH,
                            Optional.empty()), new Chunk("chunk-" + id, "doc-" + id, id, 1, texts.get(id), 9, 9,
                            List.of(), "h", 0, true), 0.9, List.of()))
                    .toList();
        }

        private static boolean shares(String text, String query) {
            String lower = text.toLowerCase(Locale.ROOT);
            return java.util.Arrays.stream(query.toLowerCase(Locale.ROOT).split("\\W+")).anyMatch(lower::contains);
        }

        @Override
        public boolean exists(String baseId) {
            return bases.containsKey(baseId);
        }

        @Override
        public Optional<KnowledgeBase> base(String baseId) {
            return Optional.ofNullable(bases.get(baseId));
        }
    }
}
