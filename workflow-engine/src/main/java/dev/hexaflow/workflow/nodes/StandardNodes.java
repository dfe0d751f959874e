package dev.hexaflow.workflow.nodes;

import dev.hexaflow.workflow.engine.NodeCatalogue;
import dev.hexaflow.workflow.engine.NodeExecutor;
import dev.hexaflow.workflow.port.out.CodeRunner;
import dev.hexaflow.workflow.port.out.DocumentTextExtractor;
import dev.hexaflow.workflow.port.out.FileContents;
import dev.hexaflow.workflow.port.out.HttpRequester;
import dev.hexaflow.workflow.port.out.KnowledgeRetriever;
import dev.hexaflow.workflow.port.out.McpSessions;
import dev.hexaflow.workflow.port.out.ModelProvider;
import dev.hexaflow.workflow.port.out.TemplateRenderer;
import dev.hexaflow.workflow.port.out.ToolRunner;
import dev.hexaflow.domain.workflow.NodeType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Every node type Hexaflow runs, given the adapters that do their library and I/O work. */
public final class StandardNodes {

    /**
     * The adapters the nodes need, each one optional, and what its absence means: no template renderer, no
     * template-transform node (and jinja2 prompts fail); no code runners, no language a code node may use; no HTTP
     * requester, no http-request node; no model provider, model nodes are refused when a run starts, with Dify's
     * message (agent nodes too); no file contents and document extractor, no document-extractor node; no tool runners, every tool
     * node (and every tool of an agent node) is kept with a warning and fails when a run reaches it; no knowledge, no
     * knowledge-retrieval node. Start from {@link #none()} and add what you have.
     */
    public static final class Services {

        private static final Services NONE = new Services(null, List.of(), null, null, null, null, List.of(), null,
                null);

        private final TemplateRenderer templates;
        private final List<CodeRunner> codeRunners;
        private final HttpRequester http;
        private final ModelProvider models;
        private final FileContents files;
        private final DocumentTextExtractor documents;
        private final List<ToolRunner> tools;
        private final KnowledgeRetriever knowledge;
        private final McpSessions mcpSessions;

        private Services(TemplateRenderer templates, List<CodeRunner> codeRunners, HttpRequester http,
                ModelProvider models, FileContents files, DocumentTextExtractor documents, List<ToolRunner> tools,
                KnowledgeRetriever knowledge, McpSessions mcpSessions) {
            this.mcpSessions = mcpSessions;
            this.templates = templates;
            this.codeRunners = List.copyOf(codeRunners);
            this.http = http;
            this.models = models;
            this.files = files;
            this.documents = documents;
            this.tools = List.copyOf(tools);
            this.knowledge = knowledge;
        }

        /** No adapter at all: the nodes that need none (start, end, if-else, iteration, loop and the rest). */
        public static Services none() {
            return NONE;
        }

        public Services withTemplates(TemplateRenderer renderer) {
            return new Services(required(renderer, "template renderer"), codeRunners, http, models, files,
                    documents, tools, knowledge, mcpSessions);
        }

        public Services withCodeRunners(List<CodeRunner> runners) {
            return new Services(templates, required(runners, "code runners"), http, models, files, documents,
                    tools, knowledge, mcpSessions);
        }

        public Services withHttp(HttpRequester requester) {
            return new Services(templates, codeRunners, required(requester, "HTTP requester"), models, files,
                    documents, tools, knowledge, mcpSessions);
        }

        public Services withModels(ModelProvider provider) {
            return new Services(templates, codeRunners, http, required(provider, "model provider"), files,
                    documents, tools, knowledge, mcpSessions);
        }

        /** What the document extractor needs: where a file's bytes are read, and what reads text out of them. */
        public Services withDocuments(FileContents contents, DocumentTextExtractor extractor) {
            return new Services(templates, codeRunners, http, models, required(contents, "file contents"),
                    required(extractor, "document text extractor"), tools, knowledge, mcpSessions);
        }

        /** The runners a tool node asks, in order, for the tool it names: the built-ins first, then bindings. */
        public Services withTools(List<ToolRunner> runners) {
            return new Services(templates, codeRunners, http, models, files, documents,
                    required(runners, "tool runners"), knowledge, mcpSessions);
        }

        /** The knowledge bases the knowledge-retrieval node searches. */
        public Services withKnowledge(KnowledgeRetriever retrieve) {
            return new Services(templates, codeRunners, http, models, files, documents, tools,
                    required(retrieve, "knowledge retrieval"), mcpSessions);
        }

        /** The client of the MCP servers an agent's MCP strategy names in its own settings. */
        public Services withMcpSessions(McpSessions sessions) {
            return new Services(templates, codeRunners, http, models, files, documents, tools, knowledge,
                    required(sessions, "MCP sessions"));
        }

        public Optional<TemplateRenderer> templates() {
            return Optional.ofNullable(templates);
        }

        public List<CodeRunner> codeRunners() {
            return codeRunners;
        }

        public Optional<HttpRequester> http() {
            return Optional.ofNullable(http);
        }

        public Optional<ModelProvider> models() {
            return Optional.ofNullable(models);
        }

        /** The tool runners, in the order the tool node asks them. */
        public List<ToolRunner> tools() {
            return tools;
        }

        private static <T> T required(T part, String name) {
            if (part == null) {
                throw new IllegalArgumentException("give a " + name + ", or leave it out for none");
            }
            return part;
        }
    }

    private StandardNodes() {
    }

    public static NodeCatalogue catalogue(Services services) {
        List<NodeExecutor> executors = new ArrayList<>(List.of(
                new StartNode(),
                new EndNode(),
                new AnswerNode(),
                new IfElseNode(),
                new VariableAggregatorNode(NodeType.VARIABLE_AGGREGATOR),
                new VariableAggregatorNode(NodeType.VARIABLE_ASSIGNER),
                new AssignerNode(),
                new ListOperatorNode(),
                new IterationNode(),
                new LoopNode(),
                new PassiveNode(NodeType.ITERATION_START),
                new PassiveNode(NodeType.LOOP_START),
                new PassiveNode(NodeType.LOOP_END),
                new HumanInputNode(),
                new TriggerNode(NodeType.TRIGGER_SCHEDULE),
                new TriggerNode(NodeType.TRIGGER_PLUGIN),
                new TriggerWebhookNode(),
                new CodeNode(services.codeRunners())));
        services.templates().ifPresent(templates -> executors.add(new TemplateTransformNode(templates)));
        services.http().ifPresent(http -> executors.add(new HttpRequestNode(http)));
        ModelProvider models = services.models().orElse(null);
        executors.add(new LlmNode(models, services.templates().orElse(null)));
        executors.add(new QuestionClassifierNode(models));
        executors.add(new ParameterExtractorNode(models));
        executors.add(new ToolNode(services.tools));
        executors.add(new AgentNode(models, services.tools, services.knowledge, services.mcpSessions));
        if (services.files != null) {
            executors.add(new DocumentExtractorNode(services.files, services.documents));
        }
        if (services.knowledge != null) {
            executors.add(new KnowledgeRetrievalNode(services.knowledge, models));
        }
        return new NodeCatalogue(executors);
    }
}
