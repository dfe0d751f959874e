package dev.hexaflow.workflow.nodes;

import dev.hexaflow.workflow.engine.NodeExecutor;
import dev.hexaflow.workflow.engine.NodeContext;
import dev.hexaflow.workflow.engine.NodeFailure;
import dev.hexaflow.workflow.engine.NodeResult;
import dev.hexaflow.workflow.engine.PreparedNode;
import dev.hexaflow.workflow.port.out.ModelProvider;
import dev.hexaflow.workflow.port.out.ModelProvider.ChatMessage;
import dev.hexaflow.workflow.port.out.ModelProvider.ChatRequest;
import dev.hexaflow.workflow.port.out.ModelProvider.ChatResult;
import dev.hexaflow.workflow.port.out.TemplateRenderer;
import dev.hexaflow.domain.workflow.DataTree;
import dev.hexaflow.domain.workflow.FileValue;
import dev.hexaflow.domain.workflow.Node;
import dev.hexaflow.domain.workflow.NodeType;
import dev.hexaflow.domain.workflow.Values;
import dev.hexaflow.domain.workflow.VariablePool;
import dev.hexaflow.domain.workflow.VariableSelector;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * llm: renders its prompts (basic, with {@code {{#node.var#}}} and {@code {{#context#}}}, or jinja2 with named
 * variables), adds the context and vision files, asks the model, and answers {@code text}, {@code usage} and
 * {@code finish_reason}. When an end node shows its text, the text streams to the client as the model makes it.
 * In a chatflow, its {@code memory} brings the conversation's earlier turns ({@link ChatMemory}). With
 * {@code reasoning_format: separated}, the model's {@code <think>} reasoning leaves {@code text} for
 * {@code reasoning_content} and streams as reasoning events ({@link AnswerStream}); with a structured output, the
 * answer's JSON object, checked against its schema, is {@code structured_output} ({@link StructuredOutput}).
 */
public final class LlmNode implements NodeExecutor {

    private final ModelProvider models;
    private final TemplateRenderer templates;

    public LlmNode(ModelProvider models, TemplateRenderer templates) {
        this.models = models;
        this.templates = templates;
    }

    @Override
    public NodeType type() {
        return NodeType.LLM;
    }

    @Override
    public void checkReady(Node node) {
        ModelNodes.checkReady(models);
    }

    /** A prompt; a jinja2 one compiled once, when the workflow is prepared (none without a renderer). */
    private record Prompt(String role, String text, boolean jinja2, TemplateRenderer.CompiledTemplate compiled) {

        static Prompt of(String role, String text, boolean jinja2, TemplateRenderer templates) {
            return new Prompt(role, text, jinja2, jinja2 && templates != null ? templates.compile(text) : null);
        }
    }

    /** What a node's data says, read once when the workflow is prepared. */
    private record LlmSettings(String provider, String name, String mode, Map<String, Object> parameters,
            List<Prompt> prompts, Map<String, VariableSelector> jinjaVariables,
            Optional<VariableSelector> contextSelector, Optional<VariableSelector> visionSelector,
            boolean separateReasoning, Optional<ChatMemory> memory) {

        static LlmSettings read(DataTree data, TemplateRenderer templates) {
            DataTree model = data.tree("model");
            String provider = model.string("provider", "");
            String name = model.string("name");
            Map<String, Object> parameters = model.tree("completion_params").asMap();
            List<Prompt> prompts = prompts(data, templates);
            Map<String, VariableSelector> jinjaVariables = new LinkedHashMap<>();
            for (DataTree variable : data.tree("prompt_config").trees("jinja2_variables")) {
                jinjaVariables.put(variable.string("variable"), variable.selector("value_selector"));
            }
            DataTree context = data.tree("context");
            Optional<VariableSelector> contextSelector = context.bool("enabled", false)
                    ? context.optionalSelector("variable_selector") : Optional.empty();
            Optional<VariableSelector> visionSelector = visionFiles(data.tree("vision"));
            boolean separateReasoning = data.string("reasoning_format", "tagged").equals("separated");
            Optional<ChatMemory> memory = ChatMemory.of(data);
            return new LlmSettings(provider, name, model.string("mode", "chat"), parameters, prompts,
                    jinjaVariables, contextSelector, visionSelector, separateReasoning, memory);
        }

        /** A list of prompts for a chat model, or one prompt for a completion model. */
        private static List<Prompt> prompts(DataTree data, TemplateRenderer templates) {
            List<Prompt> prompts = new ArrayList<>();
            Object template = data.get("prompt_template");
            if (template instanceof List<?>) {
                for (DataTree prompt : data.trees("prompt_template")) {
                    boolean jinja2 = prompt.string("edition_type", "basic").equals("jinja2");
                    prompts.add(Prompt.of(prompt.string("role", "user"),
                            jinja2 ? prompt.string("jinja2_text", "") : prompt.string("text", ""), jinja2, templates));
                }
            } else {
                DataTree prompt = data.tree("prompt_template");
                boolean jinja2 = prompt.string("edition_type", "basic").equals("jinja2");
                prompts.add(Prompt.of("user", jinja2 ? prompt.string("jinja2_text", "")
                        : prompt.string("text", ""), jinja2, templates));
            }
            return prompts;
        }

        boolean completion() {
            return mode.equals("completion");
        }

        List<VariableSelector> references() {
            List<VariableSelector> references = new ArrayList<>(jinjaVariables.values());
            prompts.stream().filter(p -> !p.jinja2())
                    .forEach(p -> references.addAll(VariablePool.references(p.text())));
            contextSelector.ifPresent(references::add);
            visionSelector.ifPresent(references::add);
            return references;
        }
    }

    @Override
    public PreparedNode prepare(Node node) {
        LlmSettings settings = LlmSettings.read(node.data(), templates);
        Set<String> outputNames = Set.of("text", "reasoning_content", "usage", "finish_reason", "structured_output",
                "files");
        Optional<StructuredOutput> structured = StructuredOutput.read(node);
        return PreparedNode.of(settings.references(), Optional.of(outputNames),
                ctx -> run(settings, structured, node, ctx));
    }

    private NodeResult run(LlmSettings settings, Optional<StructuredOutput> structured, Node node,
            NodeContext ctx) {
        Optional<Object> contextValue = settings.contextSelector().flatMap(ctx.pool()::get);
        ChatRequest request = request(settings, structured, messages(settings, contextValue, ctx));
        List<ChatMessage> messages = request.messages();
        long started = System.nanoTime();
        AnswerStream answer = new AnswerStream(node, ctx, settings.separateReasoning());
        ChatResult result = ModelNodes.chat(models, request, answer, ctx);
        answer.finish();
        String text = result.text();
        String reasoning = "";
        if (settings.separateReasoning()) {
            String[] split = ThinkStreamFilter.split(text);
            text = split[0];
            reasoning = split[1];
        }
        Map<String, Object> usage = ModelNodes.usage(result.usage(), (System.nanoTime() - started) / 1e9);
        Map<String, Object> outputs = new LinkedHashMap<>();
        outputs.put("text", text);
        outputs.put("reasoning_content", reasoning);
        outputs.put("usage", usage);
        outputs.put("finish_reason", result.finishReason());
        structured.ifPresent(output -> outputs.put("structured_output", output.read(result.text())));
        Map<String, Object> process = new LinkedHashMap<>();
        process.put("model_mode", settings.mode());
        process.put("prompts", messages.stream().map(m -> Map.of("role", m.role(), "text", m.text()))
                .toList());
        process.put("model_provider", settings.provider());
        process.put("model_name", settings.name());
        process.put("usage", usage);
        process.put("finish_reason", result.finishReason());
        List<Map<String, Object>> cited = contextValue.map(LlmNode::retrieverResources).orElse(List.of());
        if (!cited.isEmpty()) {
            process.put(RETRIEVER_RESOURCES, cited);
        }
        return new NodeResult(Map.of(), process, outputs, null, result.usage().totalTokens(), null);
    }

    /** The rendered prompts, with the conversation's memory and the vision images in them. */
    private List<ChatMessage> messages(LlmSettings settings, Optional<Object> contextValue, NodeContext ctx) {
        VariablePool pool = ctx.pool();
        String contextText = contextValue.map(LlmNode::contextText).orElse("");
        Map<String, Object> jinja = new LinkedHashMap<>();
        settings.jinjaVariables().forEach((variable, selector) -> jinja.put(variable, pool.get(selector).orElse(null)));
        List<ChatMessage> messages = new ArrayList<>();
        for (Prompt prompt : settings.prompts()) {
            String text = prompt.jinja2() ? render(prompt.compiled(), jinja, ctx)
                    : basic(prompt.text(), contextText, pool);
            messages.add(ChatMessage.of(prompt.role(), text));
        }
        if (settings.memory().isPresent() && ctx.chatTurn().isPresent()) {
            messages = remember(settings.memory().get(), settings.completion(), messages, ctx);
        }
        List<String> images = settings.visionSelector().flatMap(pool::get).map(LlmNode::imageUrls)
                .orElse(List.of());
        if (!images.isEmpty()) {
            int last = lastUser(messages);
            ChatMessage user = messages.get(last);
            messages.set(last, new ChatMessage(user.role(), user.text(), images));
        }
        return messages;
    }

    /**
     * The model call: with a structured output, its schema as the response format of a model that takes one, or
     * else in the system prompt (Dify's {@code invoke_llm_with_structured_output}).
     */
    @SuppressWarnings("unchecked")
    private ChatRequest request(LlmSettings settings, Optional<StructuredOutput> structured,
            List<ChatMessage> messages) {
        if (structured.isEmpty()) {
            return new ChatRequest(settings.provider(), settings.name(), messages, settings.parameters(), List.of());
        }
        Map<String, Object> schema = (Map<String, Object>) structured.get().schema();
        if (models.takesJsonSchema(settings.provider(), settings.name())) {
            return new ChatRequest(settings.provider(), settings.name(), messages, settings.parameters(), List.of(),
                    schema);
        }
        return new ChatRequest(settings.provider(), settings.name(), structured.get().prompted(messages),
                settings.parameters(), List.of());
    }

    /** The prompt with the conversation's memory in it, as the model's mode wants it. */
    private static List<ChatMessage> remember(ChatMemory memory, boolean completion, List<ChatMessage> messages,
            NodeContext ctx) {
        if (completion) {
            String prompt = messages.isEmpty() ? "" : messages.get(0).text();
            return new ArrayList<>(List.of(ChatMessage.of("user",
                    memory.completionPrompt(prompt, ctx.chatTurn().orElseThrow(), ctx.pool()))));
        }
        return memory.chatMessages(messages, ctx.chatTurn().orElseThrow(), ctx.pool());
    }

    /**
     * A basic prompt with its references and the context put in, each once: the context is put in after the
     * references, so that a context holding {@code {{#env.secret#}}} stays text.
     */
    private static String basic(String text, String contextText, VariablePool pool) {
        String[] parts = text.split(java.util.regex.Pattern.quote("{{#context#}}"), -1);
        StringBuilder prompt = new StringBuilder(pool.render(parts[0]));
        for (int i = 1; i < parts.length; i++) {
            prompt.append(contextText).append(pool.render(parts[i]));
        }
        return prompt.toString();
    }

    private static int lastUser(List<ChatMessage> messages) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i).role().equals("user")) {
                return i;
            }
        }
        messages.add(ChatMessage.of("user", ""));
        return messages.size() - 1;
    }

    /**
     * The knowledge a context cites, in Dify's {@code retriever_resources} shape (its LLM node's
     * {@code _convert_to_original_retriever_resource}): one entry for each item from a knowledge base, none for
     * other items. Dify hands them to the chat as an event of their own; here they travel in the node's process
     * data under this key, and only when there are some.
     */
    public static final String RETRIEVER_RESOURCES = "retriever_resources";

    static List<Map<String, Object>> retrieverResources(Object value) {
        if (!(value instanceof List<?> list)) {
            return List.of();
        }
        List<Map<String, Object>> resources = new ArrayList<>();
        for (Object item : list) {
            if (!(item instanceof Map<?, ?> map) || !(map.get("metadata") instanceof Map<?, ?> metadata)
                    || !"knowledge".equals(metadata.get("_source"))) {
                continue;
            }
            Map<String, Object> source = new LinkedHashMap<>();
            source.put("position", metadata.get("position"));
            source.put("dataset_id", metadata.get("dataset_id"));
            source.put("dataset_name", metadata.get("dataset_name"));
            source.put("document_id", metadata.get("document_id"));
            source.put("document_name", metadata.get("document_name"));
            source.put("data_source_type", metadata.get("data_source_type"));
            source.put("segment_id", metadata.get("segment_id"));
            source.put("retriever_from", metadata.get("retriever_from"));
            source.put("score", metadata.get("score"));
            source.put("hit_count", metadata.get("segment_hit_count"));
            source.put("word_count", metadata.get("segment_word_count"));
            source.put("segment_position", metadata.get("segment_position"));
            source.put("index_node_hash", metadata.get("segment_index_node_hash"));
            source.put("content", map.get("content"));
            source.put("page", metadata.get("page"));
            source.put("doc_metadata", metadata.get("doc_metadata"));
            resources.add(source);
        }
        return resources;
    }

    /** A context is text, or knowledge-retrieval results whose contents are joined. */
    static String contextText(Object value) {
        if (value instanceof List<?> list) {
            List<String> parts = new ArrayList<>();
            for (Object item : list) {
                parts.add(item instanceof Map<?, ?> map && map.get("content") != null
                        ? String.valueOf(map.get("content")) : Values.text(item));
            }
            return String.join("\n", parts);
        }
        return Values.text(value);
    }

    /** The files vision shows; one that says only "enabled" (0.1.x) shows the run's, as Dify's default does. */
    private static Optional<VariableSelector> visionFiles(DataTree vision) {
        if (!vision.bool("enabled", false)) {
            return Optional.empty();
        }
        return Optional.of(vision.tree("configs").optionalSelector("variable_selector")
                .orElse(VariableSelector.of(VariableSelector.SYSTEM, "files")));
    }

    private static List<String> imageUrls(Object value) {
        List<String> urls = new ArrayList<>();
        List<?> files = value instanceof List<?> list ? list : List.of(value);
        for (Object file : files) {
            if (file instanceof FileValue f && "image".equals(f.type())) {
                f.attribute("url").map(String::valueOf).ifPresent(urls::add);
            }
        }
        return urls;
    }

    private static String render(TemplateRenderer.CompiledTemplate template, Map<String, Object> variables,
            NodeContext ctx) {
        if (template == null) {
            throw new NodeFailure("LLMNodeError", "jinja2 prompts need a template renderer", null);
        }
        try {
            return template.render(variables, ctx.settings().promptLimits(), ctx);
        } catch (TemplateRenderer.TemplateException e) {
            throw new NodeFailure("LLMNodeError", "The jinja2 prompt failed: " + e.getMessage(), e);
        }
    }
}
