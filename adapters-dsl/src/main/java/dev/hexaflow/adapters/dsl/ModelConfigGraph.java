package dev.hexaflow.adapters.dsl;

import dev.hexaflow.domain.workflow.AppInfo;
import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.Edge;
import dev.hexaflow.domain.workflow.Graph;
import dev.hexaflow.domain.workflow.InvalidWorkflowException;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.WorkflowProblem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The graph Dify's runtime implies for an app it describes by {@code model_config} (chat, agent-chat,
 * completion), so that the one engine runs it: start (the {@code user_input_form}) → knowledge-retrieval (when
 * {@code dataset_configs} names bases) → llm, or agent for agent-chat (which is offered the bases as retrieval
 * tools instead, as Dify's agent runner offers them) → answer. A chatbot's {@code pre_prompt} is
 * its system prompt, with the conversation's memory and the query as the user's message, as Dify's simple prompt
 * transform places them; a text generator's is one user message (context, pre_prompt, query) with no memory.
 */
final class ModelConfigGraph {

    static final String START = "start";
    static final String KNOWLEDGE = "knowledge";
    static final String MODEL = "llm";
    static final String AGENT = "agent";
    static final String ANSWER = "answer";

    /** Dify's PromptTemplateParser: {{name}} of an input, and its three special names. */
    private static final Pattern VARIABLE = Pattern.compile(
            "\\{\\{([a-zA-Z_][a-zA-Z0-9_]{0,29}|#histories#|#query#|#context#)}}");
    /** Dify's context prompt of its simple prompt templates (common_chat and common_completion). */
    static final String CONTEXT_PROMPT = "Use the following context as your learned knowledge, inside "
            + "<context></context> XML tags.\n\n<context>\n{{#context#}}\n</context>\n\nWhen answer to user:\n"
            + "- If you don't know, just say that you don't know.\n- If you don't know when you are not sure, ask "
            + "for clarification.\nAvoid mentioning that you obtained the information from the context.\nAnd "
            + "answer according to the language of the user's question.\n";
    /** The keys of model_config that Dify's /parameters answers, kept as the app's features. */
    private static final List<String> FEATURE_KEYS = List.of("opening_statement", "suggested_questions",
            "suggested_questions_after_answer", "speech_to_text", "text_to_speech", "retriever_resource",
            "annotation_reply", "more_like_this", "sensitive_word_avoidance", "file_upload");

    private ModelConfigGraph() {
    }

    /** The features of the app, as a chatflow's {@code workflow.features} holds them. */
    static Map<String, Object> features(Map<String, Object> config) {
        Map<String, Object> features = new LinkedHashMap<>();
        for (String key : FEATURE_KEYS) {
            if (config.containsKey(key)) {
                features.put(key, config.get(key));
            }
        }
        return features;
    }

    /** @throws InvalidWorkflowException naming what the config lacks */
    static Graph of(String mode, Map<String, Object> config) {
        DataTree model = DataTree.of(config).tree("model");
        if (model.string("name", "").isBlank()) {
            throw new InvalidWorkflowException(List.of(WorkflowProblem.ofFile("model_config.model.name is missing: "
                    + "a " + mode + " app needs its model")));
        }
        List<Node> nodes = new ArrayList<>();
        List<Edge> edges = new ArrayList<>();
        nodes.add(node(START, NodeType.START, "Start", Map.of("variables", InputForm.variables(config))));
        String last = START;
        Optional<String> context = Optional.empty();
        List<String> bases = baseIds(config);
        boolean agentChat = AppInfo.AGENT_CHAT_MODE.equals(mode);
        if (!bases.isEmpty() && !agentChat) {
            nodes.add(node(KNOWLEDGE, NodeType.KNOWLEDGE_RETRIEVAL, "Knowledge Retrieval",
                    knowledge(config, bases, mode)));
            edges.add(edge(last, KNOWLEDGE));
            last = KNOWLEDGE;
            context = Optional.of(KNOWLEDGE);
        }
        String prompt = prompt(text(config.get("pre_prompt")));
        String answerer = agentChat ? AGENT : MODEL;
        nodes.add(agentChat ? agent(config, prompt, bases)
                : llm(model.asMap(), prompt, context, AppInfo.COMPLETION_MODE.equals(mode), config));
        edges.add(edge(last, answerer));
        nodes.add(node(ANSWER, NodeType.ANSWER, "Answer", Map.of("answer", "{{#" + answerer + ".text#}}")));
        edges.add(edge(answerer, ANSWER));
        return new Graph(nodes, edges);
    }

    /**
     * The author's prompt in the graph's own template language: {{name}} reads the start node's input,
     * {{#query#}} the message; {{#histories#}} goes, since the memory places the history itself.
     */
    static String prompt(String preprompt) {
        Matcher matcher = VARIABLE.matcher(preprompt == null ? "" : preprompt);
        StringBuilder out = new StringBuilder();
        while (matcher.find()) {
            String name = matcher.group(1);
            String replacement = switch (name) {
                case "#context#" -> "{{#context#}}";
                case "#query#" -> "{{#sys.query#}}";
                case "#histories#" -> "";
                default -> "{{#" + START + "." + name + "#}}";
            };
            matcher.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        matcher.appendTail(out);
        return out.toString();
    }

    private static Node llm(Map<String, Object> model, String prompt, Optional<String> context, boolean completion,
            Map<String, Object> config) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("title", "LLM");
        data.put("model", model);
        String withContext = context.isPresent() && !prompt.contains("{{#context#}}")
                ? CONTEXT_PROMPT + "\n" + prompt : prompt;
        List<Map<String, Object>> advanced = advancedPrompt(config);
        if (!advanced.isEmpty()) {
            // The author's own messages (Dify's advanced prompt), the memory and query after them for a chatbot.
            data.put("prompt_template", advanced);
            if (!completion) {
                data.put("memory", Map.of("window", Map.of("enabled", false, "size", 50),
                        "query_prompt_template", "{{#sys.query#}}"));
            }
        } else if (completion) {
            // A text generator sends one message: the prompt, then the query when the request has one.
            data.put("prompt_template", List.of(Map.of("role", "user", "text", withContext
                    + (prompt.contains("{{#sys.query#}}") ? "" : "{{#sys.query#}}"))));
        } else {
            data.put("prompt_template", List.of(Map.of("role", "system", "text", withContext)));
            data.put("memory", Map.of("window", Map.of("enabled", false, "size", 50),
                    "query_prompt_template", "{{#sys.query#}}"));
        }
        data.put("context", context.<Map<String, Object>>map(id -> Map.of("enabled", true,
                "variable_selector", List.of(id, "result"))).orElse(Map.of("enabled", false)));
        data.put("vision", Map.of("enabled", DataTree.of(config).tree("file_upload").tree("image")
                .bool("enabled", false), "configs", Map.of("variable_selector", List.of("sys", "files"))));
        return node(MODEL, NodeType.LLM, "LLM", data);
    }

    /**
     * A {@code prompt_type: advanced} app's messages for a chat model ({@code chat_prompt_config.prompt}, each
     * {@code {role, text}}), or its one text for a completion model ({@code completion_prompt_config.prompt});
     * none for a simple prompt.
     */
    private static List<Map<String, Object>> advancedPrompt(Map<String, Object> config) {
        List<Map<String, Object>> messages = new ArrayList<>();
        if (!"advanced".equals(text(config.get("prompt_type")))) {
            return messages;
        }
        DataTree tree = DataTree.of(config);
        if (tree.tree("model").string("mode", "chat").equals("completion")) {
            String only = tree.tree("completion_prompt_config").tree("prompt").string("text", "");
            messages.add(Map.of("role", "user", "text", prompt(only)));
            return messages;
        }
        for (DataTree message : tree.tree("chat_prompt_config").trees("prompt")) {
            messages.add(Map.of("role", message.string("role", "user"), "text", prompt(message.string("text", ""))));
        }
        return messages;
    }

    /** Dify's agent-chat runner: function_call or react over the model, the enabled tools of agent_mode. */
    private static Node agent(Map<String, Object> config, String instruction, List<String> bases) {
        DataTree agentMode = DataTree.of(config).tree("agent_mode");
        String strategy = agentMode.string("strategy", "function_call");
        List<Map<String, Object>> tools = new ArrayList<>();
        for (DataTree tool : agentMode.trees("tools")) {
            if (!tool.bool("enabled", true) || tool.bool("isDeleted", false)) {
                continue;
            }
            Map<String, Object> fixed = new LinkedHashMap<>();
            tool.tree("tool_parameters").asMap().forEach((name, value) -> {
                if (value != null && !"".equals(value)) {
                    fixed.put(name, Map.of("auto", 0, "value", value));
                }
            });
            Map<String, Object> offered = new LinkedHashMap<>();
            offered.put("enabled", true);
            offered.put("provider_name", tool.optionalString("provider_id").filter(p -> !p.isBlank())
                    .orElseGet(() -> tool.string("provider_name", "")));
            offered.put("tool_name", tool.string("tool_name", ""));
            offered.put("type", tool.string("provider_type", "builtin"));
            offered.put("parameters", fixed);
            tools.add(offered);
        }
        Map<String, Object> model = new LinkedHashMap<>(DataTree.of(config).tree("model").asMap());
        model.put("model", model.get("name"));
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("model", Map.of("type", "constant", "value", model));
        parameters.put("tools", Map.of("type", "constant", "value", tools));
        parameters.put("instruction", Map.of("type", "mixed", "value", instruction));
        parameters.put("query", Map.of("type", "mixed", "value", "{{#sys.query#}}"));
        parameters.put("maximum_iterations", Map.of("type", "constant", "value",
                Math.max(1, agentMode.longValue("max_iteration", 5))));
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("title", "Agent");
        data.put("agent_strategy_provider_name", "langgenius/agent/agent");
        data.put("agent_strategy_name", strategy.equals("react") ? "ReAct" : "function_calling");
        data.put("agent_parameters", parameters);
        data.put("memory", Map.of("window", Map.of("enabled", false, "size", 0)));
        if (!bases.isEmpty()) {
            data.put("dataset_ids", bases);
            data.put("dataset_retrieval", agentRetrieval(DataTree.of(config).tree("dataset_configs")));
        }
        return node(AGENT, NodeType.AGENT, "Agent", data);
    }

    /**
     * How the agent's retrieval tools search (Hexaflow's own field of the agent node): Dify's single tool per base
     * searches by the base's settings; its multi tool by dataset_configs' top_k and score_threshold.
     */
    private static Map<String, Object> agentRetrieval(DataTree settings) {
        Map<String, Object> retrieval = new LinkedHashMap<>();
        retrieval.put("retrieval_model", settings.string("retrieval_model", "multiple").equals("single")
                ? "single" : "multiple");
        retrieval.put("top_k", settings.longValue("top_k", 4));
        if (settings.bool("score_threshold_enabled", false) && settings.get("score_threshold") != null) {
            retrieval.put("score_threshold", settings.get("score_threshold"));
        }
        return retrieval;
    }

    private static Map<String, Object> knowledge(Map<String, Object> config, List<String> bases, String mode) {
        DataTree settings = DataTree.of(config).tree("dataset_configs");
        String queryVariable = text(config.get("dataset_query_variable"));
        List<String> query = AppInfo.COMPLETION_MODE.equals(mode) && queryVariable != null
                && !queryVariable.isBlank() ? List.of(START, queryVariable) : List.of("sys", "query");
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("title", "Knowledge Retrieval");
        data.put("dataset_ids", bases);
        data.put("query_variable_selector", query);
        boolean single = settings.string("retrieval_model", "multiple").equals("single");
        data.put("retrieval_mode", single ? "single" : "multiple");
        if (single) {
            data.put("single_retrieval_config", Map.of("model", DataTree.of(config).tree("model").asMap()));
        } else {
            Map<String, Object> multiple = new LinkedHashMap<>();
            multiple.put("top_k", settings.longValue("top_k", 4));
            if (settings.bool("score_threshold_enabled", false) && settings.get("score_threshold") != null) {
                multiple.put("score_threshold", settings.get("score_threshold"));
            }
            multiple.put("reranking_enable", settings.bool("reranking_enable", false));
            if (settings.get("reranking_model") instanceof Map<?, ?> rerank) {
                multiple.put("reranking_model", rerank);
            }
            data.put("multiple_retrieval_config", multiple);
        }
        return data;
    }

    /** The bases of {@code dataset_configs.datasets.datasets}, each {@code {dataset: {enabled, id}}}. */
    private static List<String> baseIds(Map<String, Object> config) {
        List<String> ids = new ArrayList<>();
        for (DataTree entry : DataTree.of(config).tree("dataset_configs").tree("datasets").trees("datasets")) {
            DataTree dataset = entry.tree("dataset");
            String id = dataset.string("id", "");
            if (dataset.bool("enabled", true) && !id.isBlank()) {
                ids.add(id);
            }
        }
        return ids;
    }

    private static Node node(String id, NodeType type, String title, Map<String, Object> data) {
        Map<String, Object> full = new LinkedHashMap<>(data);
        full.put("type", type.wireName());
        full.putIfAbsent("title", title);
        return new Node(id, type, Optional.empty(), DataTree.of(full), DataTree.of(Map.of()));
    }

    private static Edge edge(String source, String target) {
        return new Edge(source + "-" + target, source, target, null);
    }

    private static String text(Object value) {
        return value == null ? null : String.valueOf(value);
    }
}
